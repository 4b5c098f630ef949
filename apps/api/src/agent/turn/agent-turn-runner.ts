import {
  createModelSummarizer,
  ScratchpadCompressor,
  tokenizerForModel,
  type CompressionEvent,
} from '@agentdesk/compressor';
import {
  executeChatCompletion,
  type ChatCompletionResult,
  type ChatMessage,
  type ResponseFormat,
  type ToolCall,
  type UserContentPart,
} from '@agentdesk/providers';
import {
  newId,
  StorageError,
  StorageErrorCode,
  type JsonObject,
  type Message,
  type MessageOutcome,
  type NewMessage,
  type Repositories,
  type TokenUsage,
} from '@agentdesk/storage';
import pino, { type Logger } from 'pino';
import type { ModelRouter, ResolvedModel } from '../../model-access/model-router';
import type { ToolRegistry } from '@agentdesk/agent-tools';
import { SessionToolResultStore } from './session-tool-result-store';
import { storedMessageTokens } from './stored-message-tokens';
import { toContentParts } from './stored-messages';
import { loadTurnHistory } from './turn-history';
import { TurnHistoryCache } from './turn-history-cache';
import type { TurnError, TurnEventSink } from './turn-events';
import { TurnFailure, toTurnError } from './turn-failure';
import { leaseLostFailure, TurnLeaseHeartbeat } from './turn-lease-heartbeat';
import type { TurnSettings } from '../../config/turn-settings';
import { agentTurnOrigin } from '../../usage/metering/call-origins';
import type { ModelCallOrigin } from '../../usage/metering/metered-call';
import { meterCompletion } from '../../usage/metering/meter-model-call';
import type { UsageMeter } from '../../usage/metering/usage-meter';

/** One user message to answer. */
export interface TurnInput {
  readonly ownerUserId: string;
  readonly sessionId: string;
  readonly content: string | readonly UserContentPart[];
  readonly responseFormat?: ResponseFormat;
  readonly idempotencyKey?: string;
  /** Hash of the request the key came with: the same key with another fingerprint is refused (422). */
  readonly idempotencyFingerprint?: string;
  /** Aborted when the client goes away: the provider call is cancelled and what was produced is kept. */
  readonly signal: AbortSignal;
  /** Stream the model's output as events (SSE clients); otherwise one call per step. */
  readonly stream: boolean;
  /** The API key the turn was asked with, for usage metering. */
  readonly apiKeyId?: string | null;
}

/** How a turn ended, with every message it wrote (user message first). */
export interface TurnResult {
  /** The turn's id: its user message's, the same in a replay as in the original answer. */
  readonly turnId: string;
  readonly status: 'complete' | 'failed';
  /** True when an `Idempotency-Key` matched an earlier request: nothing ran, the earlier turn is returned. */
  readonly replayed: boolean;
  readonly messages: readonly Message[];
  readonly error?: TurnError;
  /** Validated JSON of the final answer, when a response format asked for it. */
  readonly json?: unknown;
  readonly validation?: ChatCompletionResult['validation'];
}

export interface AgentTurnRunnerDependencies {
  readonly repositories: Repositories;
  readonly router: ModelRouter;
  readonly tools: ToolRegistry;
  readonly settings: TurnSettings;
  /**
   * Where lease takeovers, renewal problems and exceptions of our own are logged (the transcript and
   * the client get a generic message); silent when omitted.
   */
  readonly logger?: Logger;
  /** Where every model call of a turn is metered; none in unit tests of the runner. */
  readonly usageMeter?: UsageMeter;
}

/** What one running turn carries from step to step. */
interface TurnState {
  readonly heartbeat: TurnLeaseHeartbeat;
  readonly turnId: string;
  readonly resolved: ResolvedModel;
  /** Who and what every model call of this turn is metered as. */
  readonly usageOrigin: ModelCallOrigin;
  /** Set once the turn's last write gave the lease back (the final `release` is then skipped). */
  leaseReleased: boolean;
}

/** An assistant message waiting for its model call (its count is that of the empty content). */
function pendingAnswer(model: string): NewMessage {
  return {
    role: 'assistant',
    contentParts: [],
    status: 'pending',
    model,
    tokenCount: storedMessageTokens({
      role: 'assistant',
      contentParts: [],
      toolCalls: null,
      toolCallId: null,
    }),
  };
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
 * Runs one agent turn: stores the user's message first, then loops model call → tools until the
 * model answers, compressing the turn's tool scratchpad before every call. Every step is persisted
 * as it happens (assistant messages are `pending` while their call runs), so a crash or a provider
 * outage loses nothing: the turn is recorded as failed with its error and the session stays usable.
 */
export class AgentTurnRunner {
  private readonly logger: Logger;
  private readonly historyCache: TurnHistoryCache;

  constructor(private readonly dependencies: AgentTurnRunnerDependencies) {
    this.logger = dependencies.logger ?? pino({ level: 'silent' });
    this.historyCache = new TurnHistoryCache(dependencies.settings.historyCacheTokens);
  }

  async run(clientInput: TurnInput, emit: TurnEventSink): Promise<TurnResult> {
    const { repositories, router, settings } = this.dependencies;
    // A turn is named by its user message: the id is made here because the lease needs it before
    // the message is written, and a replay (which reads that message back) answers with it again.
    const turnId = newId();
    // Taking the lease reads the session too (owner-scoped, 404 when not theirs): one statement.
    const lease = await repositories.turns.acquire(
      clientInput.ownerUserId,
      clientInput.sessionId,
      turnId,
      settings.leaseMs,
    );
    const { session } = lease;
    let resolved: ResolvedModel;
    try {
      // Routing problems are configuration errors: refuse before anything is stored.
      resolved = router.resolve(session.model ?? router.defaultModel);
    } catch (error) {
      await repositories.turns.release(clientInput.sessionId, turnId);
      throw error;
    }
    if (lease.interruptedMessages > 0) {
      this.logger.warn(
        { sessionId: clientInput.sessionId, failedMessages: lease.interruptedMessages },
        'took over an expired turn lease: the interrupted turn’s pending messages were marked failed',
      );
    }
    const heartbeat = new TurnLeaseHeartbeat(
      repositories.turns,
      { sessionId: clientInput.sessionId, turnId, leaseMs: settings.leaseMs },
      this.logger,
    );
    // The turn stops when the client goes away or when the lease is lost, whichever comes first.
    const input: TurnInput = {
      ...clientInput,
      signal: AbortSignal.any([clientInput.signal, heartbeat.signal]),
    };
    const turn: TurnState = {
      heartbeat,
      turnId,
      resolved,
      usageOrigin: agentTurnOrigin({
        model: resolved.model,
        provider: resolved.provider,
        apiKeyId: input.apiKeyId ?? null,
        portalId: session.portalId,
        ownerUserId: input.ownerUserId,
      }),
      leaseReleased: false,
    };
    try {
      // The user's message and the first pending answer in one transaction, committed before the
      // model is called. A replayed idempotency key appends nothing.
      const userContentParts = toContentParts(input.content);
      const started = await repositories.messages.appendAll(input.ownerUserId, input.sessionId, [
        {
          id: turnId,
          role: 'user',
          contentParts: userContentParts,
          tokenCount: storedMessageTokens({
            role: 'user',
            contentParts: userContentParts,
            toolCalls: null,
            toolCallId: null,
          }),
          idempotencyKey: input.idempotencyKey ?? null,
          idempotencyFingerprint: input.idempotencyFingerprint ?? null,
        },
        pendingAnswer(resolved.model),
      ]);
      const [userMessage, firstPending] = started.messages;
      if (!started.created || firstPending === undefined) return await this.replay(input, userMessage!);
      emit({
        type: 'turn-start',
        turnId,
        sessionId: input.sessionId,
        userMessageId: userMessage!.id,
        model: resolved.model,
      });
      let history: ChatMessage[];
      try {
        history = await loadTurnHistory(
          repositories.messages,
          {
            ownerUserId: input.ownerUserId,
            sessionId: input.sessionId,
            beforeSeq: userMessage!.seq,
            budgetTokens: settings.historyBudgetTokens,
            safetyFactor: tokenizerForModel(resolved.model).safetyFactor,
          },
          this.historyCache,
        );
      } catch (error) {
        return await this.failCall(input, emit, turn, [userMessage!], firstPending, error, {});
      }
      const system: ChatMessage[] = session.systemPrompt
        ? [{ role: 'system', content: session.systemPrompt }]
        : [];
      return await this.loop(input, emit, turn, {
        prefix: [
          ...system,
          ...history,
          { role: 'user', content: typeof input.content === 'string' ? input.content : [...input.content] },
        ],
        userMessage: userMessage!,
        firstPending,
      });
    } finally {
      await heartbeat.stop();
      if (!turn.leaseReleased) await repositories.turns.release(input.sessionId, turnId);
    }
  }

  private async loop(
    input: TurnInput,
    emit: TurnEventSink,
    turn: TurnState,
    start: { prefix: ChatMessage[]; userMessage: Message; firstPending: Message },
  ): Promise<TurnResult> {
    const { repositories, settings } = this.dependencies;
    const { turnId, resolved } = turn;
    const written: Message[] = [start.userMessage];
    const store = new SessionToolResultStore(repositories.toolResults, input.ownerUserId, input.sessionId);
    const compressor = new ScratchpadCompressor({
      model: resolved.model,
      store,
      ...(settings.summarize && {
        summarizer: createModelSummarizer({
          client: resolved.client,
          modelParams: { model: resolved.model },
        }),
      }),
    });
    const scratchpad: ChatMessage[] = [];
    const messageIds = () => written.map((message) => message.id);

    for (let call = 1; call <= settings.maxModelCalls; call++) {
      // Another process owns the session now: write nothing more into it.
      if (turn.heartbeat.lost) {
        const turnError = leaseLostFailure().turnError;
        emit({ type: 'error', turnId, error: turnError, messageIds: messageIds() });
        return { turnId, status: 'failed', replayed: false, messages: written, error: turnError };
      }
      const pending =
        call === 1
          ? { message: start.firstPending }
          : await repositories.messages.append(
              input.ownerUserId,
              input.sessionId,
              pendingAnswer(resolved.model),
            );
      const produced = { text: '' };
      let compressionEvents: CompressionEvent[] = [];
      let result: ChatCompletionResult;
      try {
        const compressed = await compressor.compress({
          entries: scratchpad,
          budgetTokens: settings.scratchpadBudgetTokens,
          signal: input.signal,
        });
        compressionEvents = compressed.event.method === 'none' ? [] : [compressed.event];
        for (const event of compressionEvents) emit({ type: 'compression', event });
        result = await meterCompletion(
          this.dependencies.usageMeter,
          turn.usageOrigin,
          this.callModel(input, emit, pending.message.id, produced, {
            resolved,
            messages: [...start.prefix, ...compressed.messages],
            lastCall: call === settings.maxModelCalls,
          }),
          input.signal,
        );
      } catch (error) {
        return this.failCall(input, emit, turn, written, pending.message, error, {
          producedText: produced.text,
          compressionEvents,
        });
      }

      const answerParts = answerText(result) ? toContentParts(answerText(result)) : [];
      const toolCalls = result.toolCalls.length ? (result.toolCalls as unknown as JsonObject[]) : null;
      const final = !result.toolCalls.length;
      const answered = await this.finish(
        input,
        turn,
        pending.message.id,
        {
          status: 'complete',
          contentParts: answerParts,
          toolCalls,
          usage: toUsage(result.usage),
          model: result.model || resolved.model,
          compressionEvents: compressionEvents.length ? (compressionEvents as unknown as JsonObject[]) : null,
          tokenCount: storedMessageTokens({
            role: 'assistant',
            contentParts: answerParts,
            toolCalls,
            toolCallId: null,
          }),
        },
        { last: final },
      );
      written.push(answered);
      if (answered.status !== 'complete') {
        // The answer came after the lease was taken over and the message marked interrupted.
        const turnError = (answered.error as TurnError | null) ?? leaseLostFailure().turnError;
        emit({ type: 'error', turnId, error: turnError, messageIds: messageIds() });
        return { turnId, status: 'failed', replayed: false, messages: written, error: turnError };
      }
      emit({ type: 'usage', messageId: pending.message.id, usage: result.usage });
      if (!result.toolCalls.length) {
        emit({ type: 'turn-end', turnId, status: 'complete', messageIds: messageIds() });
        return {
          turnId,
          status: 'complete',
          replayed: false,
          messages: written,
          ...(result.json !== undefined && { json: result.json }),
          ...(result.validation && { validation: result.validation }),
        };
      }

      scratchpad.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
      for (const toolCall of result.toolCalls) {
        try {
          const toolMessage = await this.runTool(input, emit, store, compressor, toolCall);
          written.push(toolMessage.stored);
          scratchpad.push(toolMessage.chat);
        } catch (error) {
          const turnError: TurnError =
            error instanceof TurnFailure
              ? error.turnError
              : { code: 'tool_failed', message: `Tool ${toolCall.name} failed: ${describe(error)}` };
          const failedParts = toContentParts(turnError.message);
          const failed = await repositories.messages.append(input.ownerUserId, input.sessionId, {
            role: 'tool',
            toolCallId: toolCall.id,
            contentParts: failedParts,
            status: 'failed',
            error: turnError,
            tokenCount: storedMessageTokens({
              role: 'tool',
              contentParts: failedParts,
              toolCalls: null,
              toolCallId: toolCall.id,
            }),
          });
          written.push(failed.message);
          emit({ type: 'error', turnId, error: turnError, messageIds: messageIds() });
          return { turnId, status: 'failed', replayed: false, messages: written, error: turnError };
        }
      }
    }
    // Unreachable in practice: the last call is told not to use tools.
    const turnError: TurnError = {
      code: 'tool_loop_limit',
      message: `The model kept calling tools after ${settings.maxModelCalls} calls`,
    };
    emit({ type: 'error', turnId, error: turnError, messageIds: messageIds() });
    return { turnId, status: 'failed', replayed: false, messages: written, error: turnError };
  }

  /**
   * Records that a model call (or what prepares it) failed: the pending answer ends `failed` with
   * the error and whatever text streamed, and the turn ends there.
   */
  private async failCall(
    input: TurnInput,
    emit: TurnEventSink,
    turn: TurnState,
    written: Message[],
    pending: Message,
    error: unknown,
    partial: { producedText?: string; compressionEvents?: CompressionEvent[] },
  ): Promise<TurnResult> {
    const { turnId } = turn;
    const turnError = toTurnError(error, input.signal);
    if (turnError.code === 'internal_error')
      this.logger.error({ err: error, turnId }, 'agent turn failed with an exception of our own');
    const contentParts = partial.producedText ? toContentParts(partial.producedText) : [];
    const failed = await this.finish(
      input,
      turn,
      pending.id,
      {
        status: 'failed',
        error: turnError,
        contentParts,
        compressionEvents: (partial.compressionEvents ?? []) as unknown as JsonObject[],
        tokenCount: storedMessageTokens({
          role: 'assistant',
          contentParts,
          toolCalls: null,
          toolCallId: null,
        }),
      },
      { last: true },
    );
    written.push(failed);
    const recordedError = (failed.error as TurnError | null) ?? turnError;
    emit({ type: 'error', turnId, error: recordedError, messageIds: written.map((message) => message.id) });
    return { turnId, status: 'failed', replayed: false, messages: written, error: recordedError };
  }

  /**
   * Records how the pending answer ended. When the turn's lease expired and another process
   * already marked the message interrupted, that stored outcome stands and is returned. The
   * turn's last write stops the heartbeat first and gives the lease back in the same transaction.
   */
  private async finish(
    input: TurnInput,
    turn: TurnState,
    messageId: string,
    outcome: MessageOutcome,
    options: { last: boolean },
  ): Promise<Message> {
    const { messages } = this.dependencies.repositories;
    if (options.last) await turn.heartbeat.stop();
    try {
      const finished = await messages.finish(
        input.ownerUserId,
        input.sessionId,
        messageId,
        outcome,
        options.last ? { releaseLeaseOf: turn.turnId } : {},
      );
      if (options.last) turn.leaseReleased = true;
      return finished;
    } catch (error) {
      if (error instanceof StorageError && error.code === StorageErrorCode.MessageNotPending)
        return messages.getForOwner(input.ownerUserId, input.sessionId, messageId);
      throw error;
    }
  }

  private async callModel(
    input: TurnInput,
    emit: TurnEventSink,
    messageId: string,
    produced: { text: string },
    call: { resolved: ResolvedModel; messages: ChatMessage[]; lastCall: boolean },
  ): Promise<ChatCompletionResult> {
    const options = {
      modelParams: { model: call.resolved.model },
      messages: call.messages,
      tools: this.dependencies.tools.definitions(),
      // On the last allowed call the model must answer instead of asking for more tools.
      toolChoice: call.lastCall ? ('none' as const) : ('auto' as const),
      signal: input.signal,
      streamIdleTimeoutMs: this.dependencies.router.requestTimeoutMs,
      ...(input.responseFormat && { responseFormat: input.responseFormat }),
    };
    if (!input.stream) {
      const result = await executeChatCompletion(call.resolved.client, { ...options, stream: false });
      for (const toolCall of result.toolCalls) emit({ type: 'tool-call', messageId, toolCall });
      return result;
    }
    for await (const part of executeChatCompletion(call.resolved.client, { ...options, stream: true })) {
      // A turn has no refusal event: a refusal streamed apart from the text (OpenAI's) is the answer's words.
      if (part.type === 'text-delta' || part.type === 'refusal-delta') {
        produced.text += part.text;
        emit({ type: 'text-delta', messageId, text: part.text });
      } else if (part.type === 'tool-call') emit({ type: 'tool-call', messageId, toolCall: part.toolCall });
      else if (part.type === 'finish') return part.result;
    }
    throw new TurnFailure({ code: 'provider_error', message: 'The provider stream ended without a result' });
  }

  /** Runs one tool, keeps its full output aside, and stores a copy bounded for later turns' context. */
  private async runTool(
    input: TurnInput,
    emit: TurnEventSink,
    store: SessionToolResultStore,
    compressor: ScratchpadCompressor,
    toolCall: ToolCall,
  ): Promise<{ stored: Message; chat: ChatMessage }> {
    const { repositories, tools, settings } = this.dependencies;
    const output = await tools.execute(toolCall.name, toolCall.arguments, {
      ownerUserId: input.ownerUserId,
      sessionId: input.sessionId,
      toolResults: store,
      signal: input.signal,
    });
    const toolChat: ChatMessage = {
      role: 'tool',
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      content: output.content,
      ...(output.isError && { isError: true }),
    };
    const bounded = await compressor.compress({
      entries: [{ role: 'assistant', content: '', toolCalls: [toolCall] }, toolChat],
      budgetTokens: settings.storedToolResultTokens,
    });
    const boundedTool = bounded.messages.find((message) => message.role === 'tool');
    const storedText =
      boundedTool && boundedTool.role === 'tool' ? textOfTool(boundedTool.content) : output.content;
    const storedParts = toContentParts(storedText);
    const appended = await repositories.messages.append(input.ownerUserId, input.sessionId, {
      role: 'tool',
      toolCallId: toolCall.id,
      contentParts: storedParts,
      tokenCount: storedMessageTokens({
        role: 'tool',
        contentParts: storedParts,
        toolCalls: null,
        toolCallId: toolCall.id,
      }),
      ...(output.isError && { error: { code: 'tool_error', message: 'The tool reported an error' } }),
    });
    await store.put({ toolCallId: toolCall.id, toolName: toolCall.name, content: output.content });
    emit({
      type: 'tool-result',
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      isError: output.isError,
      characters: output.content.length,
      preview: output.content.slice(0, 500),
    });
    return { stored: appended.message, chat: toolChat };
  }

  /**
   * The earlier turn that an `Idempotency-Key` names: its user message and what followed it, under
   * the earlier turn's id (its user message's).
   */
  private async replay(input: TurnInput, userMessage: Message): Promise<TurnResult> {
    const after: Message[] = [];
    let cursor: string | undefined;
    collect: do {
      const page = await this.dependencies.repositories.messages.listForOwner(
        input.ownerUserId,
        input.sessionId,
        {
          limit: 500,
          ...(cursor && { cursor }),
        },
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
      ...(failed?.error && { error: failed.error as TurnError }),
    };
  }
}

function textOfTool(content: string | readonly { type: 'text'; text: string }[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
