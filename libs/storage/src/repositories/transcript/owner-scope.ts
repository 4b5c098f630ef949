import type { Kysely, QueryCreator } from 'kysely';
import type { Database } from '../../database-schema';
import { notFound } from '../../storage-error';

/**
 * Whose session a read or write may touch: the owner's only (every read of a user's data), or any
 * (the admin and viewer reads, audited by the API).
 */
export type SessionAccess =
  { readonly kind: 'owner'; readonly ownerUserId: string } | { readonly kind: 'admin' };

/** Access to the sessions of `ownerUserId` only. */
export const ownerAccess = (ownerUserId: string): SessionAccess => ({ kind: 'owner', ownerUserId });

/** Access to any session (audited admin and viewer reads). */
export const adminAccess: SessionAccess = { kind: 'admin' };

/**
 * The id of `sessionId` when the access reaches it — nothing otherwise — as a subquery for
 * `where('session_id', 'in', …)`. The one owner filter of the transcript's tables (messages, tool
 * results), reads and writes alike: ownership is checked in the statement itself, so a foreign
 * session behaves exactly like a missing one.
 */
export function sessionIdsWithin(db: QueryCreator<Database>, access: SessionAccess, sessionId: string) {
  const session = db.selectFrom('sessions').select('id').where('id', '=', sessionId);
  return access.kind === 'owner' ? session.where('owner_user_id', '=', access.ownerUserId) : session;
}

/** `NotFound` (a session) unless the access reaches the session: tells an empty page from a foreign session. */
export async function assertSessionWithin(
  db: Kysely<Database>,
  access: SessionAccess,
  sessionId: string,
): Promise<void> {
  const session = await sessionIdsWithin(db, access, sessionId).executeTakeFirst();
  if (session === undefined) throw notFound('session');
}
