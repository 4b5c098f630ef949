import { z } from 'zod';
import { apiKeyRoles } from './api-keys';
import { costJsonFields } from './cost';
import { userJsonSchema } from './users';

/** The longest display name a portal may send for its end user (`X-End-User-Name`). */
export const MAX_PERSON_NAME_LENGTH = 120;

/** Roles a person can hold (the directory's role filter). */
export const personRoles = apiKeyRoles;

/** A person's usage over the range the directory asked for (UTC days, both included). */
export const personUsageJsonSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  thinkingTokens: z.number(),
  cachedTokens: z.number(),
  modelCalls: z.number(),
  /** Their cost as every other cost is told: unknown (null) when any call had no price, never $0. */
  ...costJsonFields,
});
export type PersonUsageJson = z.infer<typeof personUsageJsonSchema>;

/** One row of the people directory (`GET /v1/admin/users`, `GET /v1/admin/users/:id`). */
export const personJsonSchema = userJsonSchema.extend({
  /** The email their identity provider last gave (single sign-on users only). */
  email: z.string().nullable(),
  /** Their most powerful role (unrevoked keys, single sign-on); null for portal end users. */
  role: z.enum(personRoles).nullable(),
  sessionCount: z.number(),
  /** Their sessions' latest change; null without sessions. */
  lastActiveAt: z.string().nullable(),
  usage: personUsageJsonSchema,
  /** The range `usage` covers, `YYYY-MM-DD` (UTC), both included. */
  usageFrom: z.string(),
  usageTo: z.string(),
});
export type PersonJson = z.infer<typeof personJsonSchema>;
