import type { Selectable } from 'kysely';
import type { UsersTable } from '../database-schema';

/** A person or a portal's end user. Portal end users are unique per (portalId, externalId). */
export interface User {
  readonly id: string;
  readonly portalId: string | null;
  readonly externalId: string;
  readonly displayName: string | null;
  readonly createdAt: Date;
}

/** Maps a `users` row. */
export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    portalId: row.portal_id,
    externalId: row.external_id,
    displayName: row.display_name,
    createdAt: new Date(row.created_at),
  };
}
