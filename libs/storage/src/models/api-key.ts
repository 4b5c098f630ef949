import type { Role } from '@agentdesk/authz';
import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../database-schema';

/** A stored API key. The secret itself is never stored, only its SHA-256 (`secretHash`). */
export type ApiKey = {
  readonly id: string;
  readonly prefix: string;
  readonly secretHash: string;
  readonly label: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly lastUsedAt: Date | null;
} & ApiKeyHolder;

/** Who a key belongs to: a portal (possibly trusted to name end users) or one user. */
export type ApiKeyHolder =
  | {
      readonly role: 'portal';
      readonly portalId: string;
      readonly ownerUserId: null;
      readonly trustClientUserId: boolean;
    }
  | {
      readonly role: Exclude<Role, 'portal'>;
      readonly ownerUserId: string;
      readonly portalId: string | null;
      readonly trustClientUserId: false;
    };

/** Maps an `api_keys` row; the table's CHECK constraints guarantee the holder shape. */
export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  const common = {
    id: row.id,
    prefix: row.prefix,
    secretHash: row.secret_hash,
    label: row.label,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  };
  if (row.role === 'portal') {
    return {
      ...common,
      role: 'portal',
      portalId: row.portal_id ?? '',
      ownerUserId: null,
      trustClientUserId: row.trust_client_user_id === 1,
    };
  }
  return {
    ...common,
    role: row.role,
    ownerUserId: row.owner_user_id ?? '',
    portalId: row.portal_id,
    trustClientUserId: false,
  };
}
