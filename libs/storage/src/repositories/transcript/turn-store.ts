import type { Message } from '../../models/message';
import type { ToolResult } from '../../models/tool-result';
import type { RepositoryContext } from '../repository-context';
import {
  appendMessages,
  type AppendedMessage,
  type AppendedMessages,
  type NewMessage,
  type NewMessages,
} from './message-append';
import { finishMessage, type AnswerOutcome, type FailureOutcome, type FinishOptions } from './message-finish';
import { keepToolResult, type NewToolResult } from './tool-result-writes';
import {
  acquireLease,
  recoverInterruptedTurns,
  releaseLease,
  renewLease,
  type AcquiredLease,
  type RecoveredTurns,
} from './turn-lease';

/**
 * What an agent turn writes, in order: the session's turn lease (one turn at a time per session,
 * taken over when it expired), the user's message with the first pending answer, each answer as its
 * model call ends (with the tool calls it asked for) or fails, each tool's message and full result,
 * and the lease given back. Every write filters on the session's owner in the same statement, so a
 * foreign session behaves exactly like a missing one. Reads are {@link TranscriptReads}'.
 */
export class TurnStore {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * Takes the session's lease for `turnId`, reading the session with it. `NotFound` for a missing
   * or foreign session, `SessionClosed` for a closed one, `TurnInProgress` while another unexpired
   * turn holds it. Pending messages an expired holder left are marked failed (`turn_interrupted`).
   */
  acquire(ownerUserId: string, sessionId: string, turnId: string, leaseMs: number): Promise<AcquiredLease> {
    return acquireLease(this.context, { ownerUserId, sessionId, turnId, leaseMs });
  }

  /**
   * Extends the lease of a turn that is still working (its holder calls this on a timer). False
   * when `turnId` no longer holds it (it expired and was taken over): the turn must stop.
   */
  renew(sessionId: string, turnId: string, leaseMs: number): Promise<boolean> {
    return renewLease(this.context, sessionId, turnId, leaseMs);
  }

  /** Gives the lease back; a no-op when it already expired and another turn took it. */
  release(sessionId: string, turnId: string): Promise<void> {
    return releaseLease(this.context, sessionId, turnId);
  }

  /**
   * Marks interrupted turns failed and frees their sessions: with `all`, every lease (a
   * single-process server that just started); otherwise the expired ones (every replica's sweep).
   */
  recoverInterrupted(options: { all: boolean }): Promise<RecoveredTurns> {
    return recoverInterruptedTurns(this.context, options);
  }

  /**
   * Starts a turn: its user message and first pending answer (or any messages written together),
   * with consecutive `seq`s in one transaction, committed before the model is called. A replayed
   * idempotency key (first message only) appends nothing and returns the earlier message alone.
   */
  start(ownerUserId: string, sessionId: string, messages: NewMessages): Promise<AppendedMessages> {
    return appendMessages(this.context, ownerUserId, sessionId, messages);
  }

  /**
   * Appends one message with the next `seq`: a pending answer, a tool's result or failure (or any
   * message of a transcript being written). `NotFound` for a session that is not the owner's,
   * `SessionClosed` for a closed one; an idempotency key replays as in {@link start}.
   */
  async append(ownerUserId: string, sessionId: string, message: NewMessage): Promise<AppendedMessage> {
    const appended = await appendMessages(this.context, ownerUserId, sessionId, [message]);
    return { message: appended.messages[0]!, created: appended.created };
  }

  /**
   * Records a pending answer's completed model call — its text, the tool calls it asked for, usage —
   * and adds the usage to the session totals, atomically. `NotFound` when the message is not in the
   * owner's session; `MessageNotPending` when it already ended (e.g. marked interrupted).
   */
  recordAnswer(
    ownerUserId: string,
    sessionId: string,
    messageId: string,
    answer: AnswerOutcome = {},
    options: FinishOptions = {},
  ): Promise<Message> {
    const target = { ownerUserId, sessionId, messageId };
    return finishMessage(this.context, target, { status: 'complete', ...answer }, options);
  }

  /** Records that a pending answer failed, with its error and what it produced; as {@link recordAnswer}. */
  fail(
    ownerUserId: string,
    sessionId: string,
    messageId: string,
    failure: FailureOutcome,
    options: FinishOptions = {},
  ): Promise<Message> {
    const target = { ownerUserId, sessionId, messageId };
    return finishMessage(this.context, target, { status: 'failed', ...failure }, options);
  }

  /**
   * Keeps a tool's full output. `NotFound` when the session (or the message) is not the owner's;
   * `Conflict` when the session already has a result for this tool call id.
   */
  keepToolResult(ownerUserId: string, result: NewToolResult): Promise<ToolResult> {
    return keepToolResult(this.context, ownerUserId, result);
  }
}
