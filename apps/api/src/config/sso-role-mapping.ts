import { z } from 'zod';
import type { SsoRole } from '@agentdesk/storage';

/**
 * Which AgentDesk role a person gets from one claim of their ID token (or userinfo), as data:
 * `{"claim":"groups","map":{"agentdesk-admins":"admin","agentdesk-viewers":"viewer"}}`.
 * `viewer` reads every user's sessions; `qa` may do the same and also writes and runs QA suites.
 */
export interface RoleMapping {
  readonly claim: string;
  readonly map: Readonly<Record<string, SsoRole>>;
}

const mappingSchema = z
  .object({
    claim: z.string().min(1).max(200),
    map: z.record(z.string().min(1).max(500), z.enum(['admin', 'viewer', 'qa', 'user', 'none'])),
  })
  .strict();

/** The mapping, or a problem (never quoting the value: a typo'd secret could land in this variable). */
export function parseRoleMapping(text: string): RoleMapping | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'must be JSON: {"claim":"groups","map":{"<value>":"admin"}}';
  }
  const parsed = mappingSchema.safeParse(json);
  if (!parsed.success)
    return 'must be {"claim":"<claim>","map":{"<value>":"admin|viewer|qa|user|none"}} with at least one value';
  if (Object.keys(parsed.data.map).length === 0) return 'must map at least one claim value';
  return {
    claim: parsed.data.claim,
    map: parsed.data.map,
  };
}

/**
 * Rank of a role, to pick the highest of several mapped values (a person in two groups): each
 * role holds every scope of the ones below it (`qa` is a viewer who also writes and runs suites).
 */
export const ssoRoleRank: Readonly<Record<SsoRole, number>> = {
  none: 0,
  user: 1,
  viewer: 2,
  qa: 3,
  admin: 4,
};

/**
 * The role a claim's value gives: the highest mapped among its values (a string or a list of
 * strings); `none` when no value is mapped — never a default role.
 */
export function roleFromClaims(mapping: RoleMapping, claims: Readonly<Record<string, unknown>>): SsoRole {
  const value = claims[mapping.claim];
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  let best: SsoRole = 'none';
  for (const item of values) {
    if (typeof item !== 'string' || !Object.hasOwn(mapping.map, item)) continue;
    const role = mapping.map[item]!;
    if (ssoRoleRank[role] > ssoRoleRank[best]) best = role;
  }
  return best;
}
