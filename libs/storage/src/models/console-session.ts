import type { Selectable } from 'kysely';
import type { ConsoleSessionsTable } from '../database-schema';

/** How a person signed in to the console: with an API key, or through their company's OpenID provider. */
export const consoleWaysIn = ['api-key', 'oidc'] as const;
export type ConsoleWayIn = (typeof consoleWaysIn)[number];

/**
 * Why a console session ended before its timeouts: the person signed out; the key it was made with
 * was revoked; an admin ended it, or all of the user's sessions ("sign out everywhere"); the user's
 * role changed (single sign-on refreshes the role at each sign-in).
 */
export const consoleSessionEndReasons = [
  'sign-out',
  'key-revoked',
  'ended-by-admin',
  'signed-out-everywhere',
  'role-changed',
] as const;
export type ConsoleSessionEndReason = (typeof consoleSessionEndReasons)[number];

/** `open`: usable; `ended`: ended before its time (`endReason` says why); `expired`: a timeout passed. */
export type ConsoleSessionStatus = 'open' | 'ended' | 'expired';

/** A console sign-in as stored. The token is never stored, only its hash (not part of this type). */
export interface ConsoleSession {
  readonly id: string;
  /** As of when it was read (the repository's clock). */
  readonly status: ConsoleSessionStatus;
  readonly userId: string;
  readonly apiKeyId: string | null;
  readonly wayIn: ConsoleWayIn;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  /** When it ends unless used again first (slides with use, never past `absoluteExpiresAt`). */
  readonly idleExpiresAt: Date;
  /** When it ends however much it is used. */
  readonly absoluteExpiresAt: Date;
  readonly clientAddress: string | null;
  readonly userAgent: string | null;
  readonly endedAt: Date | null;
  readonly endReason: ConsoleSessionEndReason | null;
}

/** Maps a `console_sessions` row read at `now`. */
export function toConsoleSession(row: Selectable<ConsoleSessionsTable>, now: number): ConsoleSession {
  const expired = row.idle_expires_at <= now || row.absolute_expires_at <= now;
  return {
    id: row.id,
    status: row.ended_at !== null ? 'ended' : expired ? 'expired' : 'open',
    userId: row.user_id,
    apiKeyId: row.api_key_id,
    wayIn: row.way_in,
    createdAt: new Date(row.created_at),
    lastSeenAt: new Date(row.last_seen_at),
    idleExpiresAt: new Date(row.idle_expires_at),
    absoluteExpiresAt: new Date(row.absolute_expires_at),
    clientAddress: row.client_address,
    userAgent: row.user_agent,
    endedAt: row.ended_at === null ? null : new Date(row.ended_at),
    endReason: row.end_reason,
  };
}
