import type { TurnError } from '@agentdesk/api-contract';
import { sql, type Kysely, type QueryCreator } from 'kysely';
import type { Database } from '../../database-schema';
import { toColumnText } from '../../models/message-columns';
import { toSession, type Session } from '../../models/session';
import { notFound, StorageError, StorageErrorCode } from '../../storage-error';
import type { RepositoryContext } from '../repository-context';

// The per-session turn lease. Taking it is one conditional UPDATE, so two concurrent turns on a
// session (even on two API replicas) cannot both win. A lease is short and renewed by its holder
// while the turn runs; one that expired is taken over — by the next turn on the session or by any
// replica's sweep — and the dead turn's pending messages are failed as the lease is taken, so no
// message stays `pending` after its turn is gone.

/** What a recovery pass found and closed: turns whose lease expired (a crash, a stall) and their pending messages. */
export interface RecoveredTurns {
  /** Sessions whose expired lease was cleared. */
  readonly sessions: number;
  /** Pending messages marked failed with `turn_interrupted`. */
  readonly messages: number;
}

/** What taking a lease found. */
export interface AcquiredLease {
  /**
   * Pending messages a previous turn left behind (its lease expired: the server crashed or
   * stalled), now marked failed with `turn_interrupted`.
   */
  readonly interruptedMessages: number;
  /** The session as the lease left it, so the turn needs no separate read of it. */
  readonly session: Session;
}

/** The error of a message whose turn stopped before it finished (its lease was taken over or swept). */
export const interruptedTurnError: TurnError = {
  code: 'turn_interrupted',
  message:
    'The turn stopped before it finished (its server stopped or lost the session lease); send the message again to retry',
};

/** Which lease a turn asks for. */
export interface LeaseRequest {
  readonly ownerUserId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly leaseMs: number;
}

/**
 * Takes the lease for `turnId`. `NotFound` for a missing or foreign session, `SessionClosed` for a
 * closed one, `TurnInProgress` while another unexpired turn holds it. Pending messages found in
 * the session belong to a turn that no longer holds the lease; they are marked interrupted.
 */
export async function acquireLease(
  context: RepositoryContext,
  request: LeaseRequest,
): Promise<AcquiredLease> {
  const taken = await takeLease(context, request, context.clock());
  if (taken !== undefined) return taken;
  const session = await context.db
    .selectFrom('sessions')
    .select(['status'])
    .where('id', '=', request.sessionId)
    .where('owner_user_id', '=', request.ownerUserId)
    .executeTakeFirst();
  if (session === undefined) throw notFound('session');
  if (session.status === 'closed')
    throw new StorageError(StorageErrorCode.SessionClosed, 'session', 'The session is closed');
  throw new StorageError(
    StorageErrorCode.TurnInProgress,
    'session',
    'Another turn is running on this session; wait for it to finish',
  );
}

/**
 * Takes the lease when it is free or expired and fails the pending messages an earlier turn left
 * (every one of them is a leftover: once the lease is taken no other turn appends to the session,
 * and the next acquire or a sweep catches any a stalled holder writes later). PostgreSQL does both
 * in one statement (a data-modifying WITH: one round trip); SQLite runs two statements, with no
 * transaction, in process.
 */
async function takeLease(
  context: RepositoryContext,
  { ownerUserId, sessionId, turnId, leaseMs }: LeaseRequest,
  now: number,
): Promise<AcquiredLease | undefined> {
  const take = (db: QueryCreator<Database>) =>
    db
      .updateTable('sessions')
      .set({ active_turn_id: turnId, active_turn_expires_at: now + leaseMs })
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .where('status', '=', 'open')
      .where((eb) => eb.or([eb('active_turn_id', 'is', null), eb('active_turn_expires_at', '<', now)]));
  if (context.dialect === 'postgres') {
    const row = await context.db
      .with('taken', (db) => take(db).returningAll())
      // (The builder is typed for the tables alone; the WITH's own name is referred to in SQL.)
      .with('interrupted', (db) =>
        failPendingMessagesQuery(
          db as unknown as QueryCreator<Database>,
          'session-just-taken',
          now,
        ).returning('messages.id'),
      )
      .selectFrom('taken')
      .selectAll('taken')
      .select(sql<string>`(select count(*) from interrupted)`.as('interrupted_messages'))
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { interrupted_messages: interrupted, ...session } = row;
    return { interruptedMessages: Number(interrupted), session: toSession(session) };
  }
  const taken = await take(context.db).returningAll().executeTakeFirst();
  if (taken === undefined) return undefined;
  const interruptedMessages = await failPendingMessages(context.db, [sessionId], now);
  return { interruptedMessages, session: toSession(taken) };
}

/**
 * Extends the lease of a turn that is still working (its holder calls this on a timer). Returns
 * false when `turnId` no longer holds the lease — it expired and was taken over — so the turn
 * must stop; a non-holder's call changes nothing.
 */
export async function renewLease(
  context: RepositoryContext,
  sessionId: string,
  turnId: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await context.db
    .updateTable('sessions')
    .set({ active_turn_expires_at: context.clock() + leaseMs })
    .where('id', '=', sessionId)
    .where('active_turn_id', '=', turnId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease back; a no-op when it already expired and another turn took it. */
export async function releaseLease(
  context: RepositoryContext,
  sessionId: string,
  turnId: string,
): Promise<void> {
  await context.db
    .updateTable('sessions')
    .set({ active_turn_id: null, active_turn_expires_at: null })
    .where('id', '=', sessionId)
    .where('active_turn_id', '=', turnId)
    .execute();
}

/**
 * Marks interrupted turns failed and frees their sessions. With `all`, every lease is taken as
 * dead (a single-process SQLite server that just started); otherwise only expired ones — what
 * every replica's periodic sweep does on a shared PostgreSQL. Pending messages of sessions that
 * hold no lease cannot belong to a live turn either (e.g. a stalled turn that appended after its
 * lease was taken over) and are failed too.
 */
export async function recoverInterruptedTurns(
  context: RepositoryContext,
  options: { all: boolean },
): Promise<RecoveredTurns> {
  const now = context.clock();
  return context.db.transaction().execute(async (transaction) => {
    // Conditional on the lease still being expired when the row is locked: a lease renewed or
    // taken over since is left alone (PostgreSQL re-checks the WHERE after waiting for the lock).
    let expired = transaction
      .updateTable('sessions')
      .set({ active_turn_id: null, active_turn_expires_at: null, updated_at: now })
      .where('active_turn_id', 'is not', null);
    if (!options.all) expired = expired.where('active_turn_expires_at', '<', now);
    const sessions = await expired.returning('id').execute();
    const messages = await failPendingMessages(transaction, 'sessions-without-lease', now);
    return { sessions: sessions.length, messages };
  });
}

/** Fails the pending messages of the given sessions (or of every session without a lease); returns how many. */
async function failPendingMessages(
  db: Kysely<Database>,
  sessions: readonly string[] | 'sessions-without-lease',
  now: number,
): Promise<number> {
  const result = await failPendingMessagesQuery(db, sessions, now).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The UPDATE that fails pending messages: of the sessions listed, of every session without a
 * lease, or of the session the `taken` WITH query of `takeLease` just leased.
 */
function failPendingMessagesQuery(
  db: QueryCreator<Database>,
  sessions: readonly string[] | 'sessions-without-lease' | 'session-just-taken',
  now: number,
) {
  return (
    db
      .updateTable('messages')
      .set({ status: 'failed', error: toColumnText(interruptedTurnError), finished_at: now })
      // A literal, not a parameter, so both engines can prove the partial index on pending messages
      // (migration 0009) applies: otherwise this scans the whole transcript on every turn.
      .where(sql<boolean>`status = 'pending'`)
      .where((eb) =>
        sessions === 'sessions-without-lease'
          ? eb('session_id', 'in', eb.selectFrom('sessions').select('id').where('active_turn_id', 'is', null))
          : sessions === 'session-just-taken'
            ? sql<boolean>`session_id in (select id from taken)`
            : eb('session_id', 'in', sessions),
      )
  );
}
