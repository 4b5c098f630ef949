import { notFound, StorageError, StorageErrorCode } from '../storage-error';
import type { MessageError } from '../models/message';
import type { RepositoryContext } from './repository-context';

/** What a restart found and closed: turns a crash left pending. */
export interface RecoveredTurns {
  readonly sessions: number;
  readonly messages: number;
}

export const interruptedTurnError: MessageError = {
  code: 'turn_interrupted',
  message: 'The server stopped while this turn was running; send the message again to retry',
};

/**
 * The per-session turn lease. Taking it is one conditional UPDATE, so two concurrent turns on a
 * session (even on two API replicas) cannot both win; the lease expires, so a crashed server
 * does not block the session forever.
 */
export class TurnsRepository {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * Takes the lease for `turnId`. `NotFound` for a missing or foreign session, `SessionClosed` for a
   * closed one, `TurnInProgress` while another unexpired turn holds it.
   */
  async acquire(ownerUserId: string, sessionId: string, turnId: string, leaseMs: number): Promise<void> {
    const now = this.context.clock();
    const result = await this.context.db
      .updateTable('sessions')
      .set({ active_turn_id: turnId, active_turn_expires_at: now + leaseMs })
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
      .where('status', '=', 'open')
      .where((eb) => eb.or([eb('active_turn_id', 'is', null), eb('active_turn_expires_at', '<', now)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return;
    const session = await this.context.db
      .selectFrom('sessions')
      .select(['status'])
      .where('id', '=', sessionId)
      .where('owner_user_id', '=', ownerUserId)
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

  /** Extends the lease of a turn that is still working (before each model call). */
  async renew(sessionId: string, turnId: string, leaseMs: number): Promise<void> {
    await this.context.db
      .updateTable('sessions')
      .set({ active_turn_expires_at: this.context.clock() + leaseMs })
      .where('id', '=', sessionId)
      .where('active_turn_id', '=', turnId)
      .execute();
  }

  /** Gives the lease back; a no-op when it already expired and another turn took it. */
  async release(sessionId: string, turnId: string): Promise<void> {
    await this.context.db
      .updateTable('sessions')
      .set({ active_turn_id: null, active_turn_expires_at: null })
      .where('id', '=', sessionId)
      .where('active_turn_id', '=', turnId)
      .execute();
  }

  /**
   * Marks turns interrupted by a crash as failed and frees their sessions. With `all`, every pending
   * turn is taken as interrupted (a single-process SQLite server that just started); otherwise only
   * those whose lease expired (PostgreSQL shared by several replicas).
   */
  async recoverInterrupted(options: { all: boolean }): Promise<RecoveredTurns> {
    const now = this.context.clock();
    return this.context.db.transaction().execute(async (transaction) => {
      let sessions = transaction.selectFrom('sessions').select('id').where('active_turn_id', 'is not', null);
      if (!options.all) sessions = sessions.where('active_turn_expires_at', '<', now);
      const sessionIds = (await sessions.execute()).map((row) => row.id);
      // Pending messages of sessions without a lease cannot belong to a live turn either.
      let pending = transaction
        .selectFrom('messages')
        .select(['id', 'session_id'])
        .where('status', '=', 'pending');
      if (!options.all) {
        pending = pending.where((eb) =>
          eb.or([
            eb('session_id', 'in', sessionIds.length ? sessionIds : ['']),
            eb(
              'session_id',
              'in',
              eb.selectFrom('sessions').select('id').where('active_turn_id', 'is', null),
            ),
          ]),
        );
      }
      const pendingRows = await pending.execute();
      if (pendingRows.length) {
        await transaction
          .updateTable('messages')
          .set({ status: 'failed', error: JSON.stringify(interruptedTurnError), finished_at: now })
          .where(
            'id',
            'in',
            pendingRows.map((row) => row.id),
          )
          .execute();
      }
      if (sessionIds.length) {
        await transaction
          .updateTable('sessions')
          .set({ active_turn_id: null, active_turn_expires_at: null, updated_at: now })
          .where('id', 'in', sessionIds)
          .execute();
      }
      return { sessions: sessionIds.length, messages: pendingRows.length };
    });
  }
}
