import type { CompressionEvent } from '@agentdesk/compressor';
import type { TurnError } from '@agentdesk/api-contract';
import type { ChatCompletionResult, ToolCall } from '@agentdesk/providers';
import {
  StorageError,
  StorageErrorCode,
  type AnswerOutcome,
  type FailureOutcome,
  type Message,
  type NewMessage,
  type Repositories,
  type TokenUsage,
} from '@agentdesk/storage';
import { storedMessageTokens } from './stored-message-tokens';
import { toContentParts } from './stored-messages';
import type { TurnEventSink } from './turn-events';
import type { TurnInput, TurnResult, TurnState } from './turn-types';

/** What a stored message's token count is computed from: tool calls and the call id where it has them. */
type CountedMessage = Pick<NewMessage, 'role' | 'contentParts' | 'toolCalls' | 'toolCallId'>;

/** Tokens a message costs the model, computed from exactly what is stored. */
function tokensOf(message: CountedMessage): number {
  return storedMessageTokens({
    role: message.role,
    contentParts: message.contentParts,
    toolCalls: message.toolCalls ?? null,
    toolCallId: message.toolCallId ?? null,
  });
}

/** A message to append, with its token count. */
function counted(message: NewMessage): NewMessage {
  return { ...message, tokenCount: tokensOf(message) };
}

/** An assistant message waiting for its model call (its count is that of the empty content). */
function pendingAnswer(model: string): NewMessage {
  return counted({ role: 'assistant', contentParts: [], status: 'pending', model });
}

/** What the assistant said: its text, or the refusal a provider sends apart from the text (OpenAI's). */
const answerText = (result: ChatCompletionResult): string =>
  result.text || (result.finishReason === 'refusal' ? (result.refusal ?? '') : '');

const toUsage = (usage: ChatCompletionResult['usage']): TokenUsage => ({
  input: usage.inputTokens,
  output: usage.outputTokens,
  thinking: usage.thinkingTokens,
  cached: usage.cachedInputTokens,
});

/**
 * How {@link TurnTranscript.start} went: the user's message and the first pending answer were
 * stored, or an idempotency key replayed an earlier turn (nothing was stored).
 */
export type TurnStart =
  | { readonly kind: 'started'; readonly userMessage: Message; readonly firstPending: Message }
  | { readonly kind: 'replayed'; readonly result: TurnResult };

/**
 * The transcript one turn writes through the turn store: every message with its token count, the
 * answers as their model calls end, the messages the turn wrote so far (`messageIds` of its events),
 * and how the turn ends (its last event and its result).
 */
export class TurnTranscript {
  /** The messages this turn wrote, user message first, in the order the turn keeps them. */
  private readonly written: Message[] = [];

  constructor(
    private readonly repositories: Pick<Repositories, 'turnStore' | 'transcript'>,
    private readonly input: TurnInput,
    private readonly turn: TurnState,
    private readonly emit: TurnEventSink,
  ) {}

  /**
   * Stores the user's message and the first pending answer in one transaction, before the model is
   * called. A replayed idempotency key appends nothing: the earlier turn is returned instead.
   */
  async start(): Promise<TurnStart> {
    const { input } = this;
    const started = await this.repositories.turnStore.start(input.ownerUserId, input.sessionId, [
      counted({
        id: this.turn.turnId,
        role: 'user',
        contentParts: toContentParts(input.content),
        idempotencyKey: input.idempotencyKey ?? null,
        idempotencyFingerprint: input.idempotencyFingerprint ?? null,
      }),
      pendingAnswer(this.turn.resolved.model),
    ]);
    const [userMessage, firstPending] = started.messages;
    if (!started.created || firstPending === undefined)
      return { kind: 'replayed', result: await this.replay(userMessage!) };
    this.keep(userMessage!);
    return { kind: 'started', userMessage: userMessage!, firstPending };
  }

  /** Appends the pending answer of a model call after the first. */
  async appendPendingAnswer(): Promise<Message> {
    const { input } = this;
    const appended = await this.repositories.turnStore.append(
      input.ownerUserId,
      input.sessionId,
      pendingAnswer(this.turn.resolved.model),
    );
    return appended.message;
  }

  /** Records a completed model call on its pending answer (its last write when it asked for no tools). */
  async recordAnswer(
    pendingId: string,
    result: ChatCompletionResult,
    compressionEvents: readonly CompressionEvent[],
  ): Promise<Message> {
    const contentParts = answerText(result) ? toContentParts(answerText(result)) : [];
    const toolCalls = result.toolCalls.length ? result.toolCalls : null;
    const usage = toUsage(result.usage);
    const answer: AnswerOutcome = {
      contentParts,
      toolCalls,
      usage,
      ...(this.turn.costOf !== undefined && { cost: this.turn.costOf(usage) }),
      model: result.model || this.turn.resolved.model,
      compressionEvents: compressionEvents.length ? compressionEvents : null,
      tokenCount: tokensOf({ role: 'assistant', contentParts, toolCalls }),
    };
    return this.finish(pendingId, { status: 'complete', ...answer }, { last: toolCalls === null });
  }

  /** Records that a model call failed: its pending answer ends with the error and what streamed (the turn's last write). */
  failAnswer(
    pendingId: string,
    turnError: TurnError,
    partial: { producedText?: string; compressionEvents?: readonly CompressionEvent[] },
  ): Promise<Message> {
    const contentParts = partial.producedText ? toContentParts(partial.producedText) : [];
    const failure: FailureOutcome = {
      error: turnError,
      contentParts,
      compressionEvents: partial.compressionEvents ?? [],
      tokenCount: tokensOf({ role: 'assistant', contentParts }),
    };
    return this.finish(pendingId, { status: 'failed', ...failure }, { last: true });
  }

  /** Appends a tool's result as the model's later turns see it (bounded); {@link keep} it once done with it. */
  async appendToolResult(toolCall: ToolCall, storedText: string, isError: boolean): Promise<Message> {
    const { input } = this;
    const appended = await this.repositories.turnStore.append(
      input.ownerUserId,
      input.sessionId,
      counted({
        role: 'tool',
        toolCallId: toolCall.id,
        contentParts: toContentParts(storedText),
        ...(isError && { error: { code: 'tool_error', message: 'The tool reported an error' } }),
      }),
    );
    return appended.message;
  }

  /** Records a tool call that threw: a failed tool message with the turn's error. */
  async recordToolFailure(toolCall: ToolCall, turnError: TurnError): Promise<Message> {
    const { input } = this;
    const failed = await this.repositories.turnStore.append(
      input.ownerUserId,
      input.sessionId,
      counted({
        role: 'tool',
        toolCallId: toolCall.id,
        contentParts: toContentParts(turnError.message),
        status: 'failed',
        error: turnError,
      }),
    );
    this.keep(failed.message);
    return failed.message;
  }

  /** Adds a message this turn wrote to the ones it answers with. */
  keep(message: Message): void {
    this.written.push(message);
  }

  /** Ends the turn complete: the `turn-end` event, and the result. */
  complete(result: Pick<ChatCompletionResult, 'json' | 'validation'>): TurnResult {
    const { turnId } = this.turn;
    this.emit({ type: 'turn-end', turnId, status: 'complete', messageIds: this.messageIds() });
    return {
      turnId,
      status: 'complete',
      replayed: false,
      messages: this.written,
      ...(result.json !== undefined && { json: result.json }),
      ...(result.validation && { validation: result.validation }),
    };
  }

  /** Ends the turn failed: the `error` event, and the result. */
  failed(turnError: TurnError): TurnResult {
    const { turnId } = this.turn;
    this.emit({ type: 'error', turnId, error: turnError, messageIds: this.messageIds() });
    return { turnId, status: 'failed', replayed: false, messages: this.written, error: turnError };
  }

  private messageIds(): string[] {
    return this.written.map((message) => message.id);
  }

  /**
   * Records how the pending answer ended. When the turn's lease expired and another process
   * already marked the message interrupted, that stored outcome stands and is returned. The
   * turn's last write stops the heartbeat first and gives the lease back in the same transaction.
   */
  private async finish(
    messageId: string,
    outcome: ({ status: 'complete' } & AnswerOutcome) | ({ status: 'failed' } & FailureOutcome),
    options: { last: boolean },
  ): Promise<Message> {
    const { input, turn } = this;
    const { turnStore, transcript } = this.repositories;
    if (options.last) await turn.heartbeat.stop();
    const release = options.last ? { releaseLeaseOf: turn.turnId } : {};
    let finished: Message;
    try {
      finished =
        outcome.status === 'complete'
          ? await turnStore.recordAnswer(input.ownerUserId, input.sessionId, messageId, outcome, release)
          : await turnStore.fail(input.ownerUserId, input.sessionId, messageId, outcome, release);
      if (options.last) turn.leaseReleased = true;
    } catch (error) {
      if (!(error instanceof StorageError && error.code === StorageErrorCode.MessageNotPending)) throw error;
      finished = await transcript.getMessageForOwner(input.ownerUserId, input.sessionId, messageId);
    }
    this.keep(finished);
    return finished;
  }

  /**
   * The earlier turn that an `Idempotency-Key` names: its user message and what followed it, under
   * the earlier turn's id (its user message's).
   */
  private async replay(userMessage: Message): Promise<TurnResult> {
    const after: Message[] = [];
    let cursor: string | undefined;
    collect: do {
      const page = await this.repositories.transcript.listMessagesForOwner(
        this.input.ownerUserId,
        this.input.sessionId,
        { limit: 500, ...(cursor && { cursor }) },
      );
      for (const message of page.items) {
        if (message.seq <= userMessage.seq) continue;
        if (message.role === 'user') break collect;
        after.push(message);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const failed = after.find((message) => message.status === 'failed');
    return {
      turnId: userMessage.id,
      status: failed ? 'failed' : 'complete',
      replayed: true,
      messages: [userMessage, ...after],
      ...(failed?.error && { error: failed.error }),
    };
  }
}
