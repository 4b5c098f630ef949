import type {
  StoredCompressionEvent,
  StoredContentPart,
  StoredToolCall,
  TurnError,
} from '@agentdesk/api-contract';
import { sql, type QueryCreator, type Selectable } from 'kysely';
import type { Database, MessagesTable } from '../../database-schema';
import { toMessage, type Message } from '../../models/message';
import { toColumnText } from '../../models/message-columns';
import type { CallCost } from '../../models/model-price';
import type { TokenUsage } from '../../models/session';
import { StorageError, StorageErrorCode } from '../../storage-error';
import type { RepositoryContext } from '../repository-context';
import { getMessage } from './message-reads';
import { ownerAccess, sessionIdsWithin } from './owner-scope';
import { addedToSessionTotals, usageColumns } from './session-totals';

/** What a pending answer said when its model call completed (what is omitted keeps its stored value). */
export interface AnswerOutcome {
  readonly contentParts?: readonly StoredContentPart[];
  /** The tool calls the model asked for (null: none). */
  readonly toolCalls?: readonly StoredToolCall[] | null;
  readonly usage?: TokenUsage | null;
  /** What the call cost, added to the session's cost (without it, a call with usage counts as unpriced). */
  readonly cost?: CallCost | null;
  readonly model?: string | null;
  readonly compressionEvents?: readonly StoredCompressionEvent[] | null;
  /** Tokens of the final content and tool calls (see `NewMessage.tokenCount`). */
  readonly tokenCount?: number | null;
}

/** Why a pending answer failed, with what its model call produced before the failure. */
export interface FailureOutcome {
  readonly error: TurnError;
  readonly usage?: TokenUsage | null;
  readonly cost?: CallCost | null;
  /** What the model produced before the failure (e.g. a stream cut or a client disconnect). */
  readonly contentParts?: readonly StoredContentPart[];
  readonly model?: string | null;
  readonly compressionEvents?: readonly StoredCompressionEvent[] | null;
  readonly tokenCount?: number | null;
}

/** How a pending message ended. */
export type MessageOutcome =
  ({ readonly status: 'complete' } & AnswerOutcome) | ({ readonly status: 'failed' } & FailureOutcome);

/** Options of the writes that end a pending message. */
export interface FinishOptions {
  /** Release this turn's session lease in the same transaction (the turn's last write). */
  readonly releaseLeaseOf?: string;
}

/** Which pending message a finish ends. */
export interface FinishTarget {
  readonly ownerUserId: string;
  readonly sessionId: string;
  readonly messageId: string;
}

/**
 * Records how a pending message ended and adds its usage to the session totals, atomically.
 * `NotFound` when the message is not in the owner's session; `MessageNotPending` when it already ended.
 */
export async function finishMessage(
  context: RepositoryContext,
  target: FinishTarget,
  outcome: MessageOutcome,
  options: FinishOptions,
): Promise<Message> {
  const now = context.clock();
  const finishPending = (db: QueryCreator<Database>) => finishPendingMessage(db, target, outcome, now);
  const addToSession = (db: QueryCreator<Database>) =>
    addFinishedToSession(
      db,
      target,
      outcome.usage ?? null,
      outcome.cost ?? null,
      options.releaseLeaseOf,
      now,
    );
  let row: Selectable<MessagesTable> | undefined;
  if (context.dialect === 'postgres') {
    // One statement, one round trip (instead of BEGIN, two UPDATEs and COMMIT): both updates of a
    // data-modifying WITH commit together, and the session's only when the message was pending.
    row = await context.db
      .with('finished', (db) => finishPending(db).returningAll())
      // (The builder is typed for the tables alone; the WITH's own name is referred to in SQL.)
      .with('session_totals', (db) =>
        addToSession(db as unknown as QueryCreator<Database>)
          .where(sql<boolean>`exists (select 1 from finished)`)
          .returning('sessions.id'),
      )
      .selectFrom('finished')
      .selectAll('finished')
      .executeTakeFirst();
  } else {
    row = await context.db.transaction().execute(async (transaction) => {
      const finished = await finishPending(transaction).returningAll().executeTakeFirst();
      if (finished !== undefined) await addToSession(transaction).execute();
      return finished;
    });
  }
  if (row === undefined) {
    await getMessage(context.db, ownerAccess(target.ownerUserId), target.sessionId, target.messageId);
    throw new StorageError(StorageErrorCode.MessageNotPending, 'message', 'The message has already finished');
  }
  return toMessage(row);
}

/** The UPDATE that ends a pending message of the owner's session (nothing when it is not pending). */
function finishPendingMessage(
  db: QueryCreator<Database>,
  target: FinishTarget,
  outcome: MessageOutcome,
  now: number,
) {
  const usage = outcome.usage ?? null;
  return db
    .updateTable('messages')
    .set({
      status: outcome.status,
      finished_at: now,
      ...(usage === null ? {} : usageColumns(usage)),
      ...(outcome.status === 'failed' ? { error: toColumnText(outcome.error) } : {}),
      ...(outcome.status === 'complete' && outcome.toolCalls !== undefined
        ? { tool_calls: toColumnText(outcome.toolCalls) }
        : {}),
      ...(outcome.contentParts === undefined ? {} : { content: toColumnText(outcome.contentParts) }),
      ...(outcome.model === undefined ? {} : { model: outcome.model }),
      ...(outcome.tokenCount === undefined ? {} : { token_count: outcome.tokenCount }),
      ...(outcome.compressionEvents === undefined
        ? {}
        : { compression_events: toColumnText(outcome.compressionEvents) }),
    })
    .where('id', '=', target.messageId)
    .where('session_id', '=', target.sessionId)
    .where('status', '=', 'pending')
    .where('session_id', 'in', sessionIdsWithin(db, ownerAccess(target.ownerUserId), target.sessionId));
}

/** The UPDATE that adds a finished message's usage to its session and, on the turn's last write, frees the lease. */
function addFinishedToSession(
  db: QueryCreator<Database>,
  target: FinishTarget,
  usage: TokenUsage | null,
  cost: CallCost | null,
  releasedTurn: string | undefined,
  now: number,
) {
  return db
    .updateTable('sessions')
    .set((eb) => ({
      updated_at: now,
      ...addedToSessionTotals(eb, usage, cost),
      // The turn's last write gives its lease back in the same statement (a no-op when another
      // turn holds it), instead of one more round trip after it.
      ...(releasedTurn === undefined
        ? {}
        : {
            active_turn_id: sql<
              string | null
            >`case when active_turn_id = ${releasedTurn} then null else active_turn_id end`,
            active_turn_expires_at: sql<
              number | null
            >`case when active_turn_id = ${releasedTurn} then null else active_turn_expires_at end`,
          }),
    }))
    .where('id', '=', target.sessionId)
    .where('owner_user_id', '=', target.ownerUserId);
}
