import { createModelSummarizer, ScratchpadCompressor, type CompressionEvent } from '@agentdesk/compressor';
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
  type Repositories,
  type TokenUsage,
} from '@agentdesk/storage';
import pino, { type Logger } from 'pino';
import type { ModelRouter, ResolvedModel } from '../../model-access/model-router';
import type { ToolRegistry } from '@agentdesk/agent-tools';
import { SessionToolResultStore } from './session-tool-result-store';
import { storedMessagesToChat, toContentParts } from './stored-messages';
import type { TurnError, TurnEventSink } from './turn-events';
import { TurnFailure, toTurnError } from './turn-failure';
import { leaseLostFailure, TurnLeaseHeartbeat } from './turn-lease-heartbeat';
import type { TurnSettings } from '../../config/turn-settings';

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
}

/** How a turn ended, with every message it wrote (user message first). */
export interface TurnResult {
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

  constructor(private readonly dependencies: AgentTurnRunnerDependencies) {
    this.logger = dependencies.logger ?? pino({ level: 'silent' });
  }

  async run(clientInput: TurnInput, emit: TurnEventSink): Promise<TurnResult> {
    const { repositories, router, settings } = this.dependencies;
    const session = await repositories.sessions.getForOwner(clientInput.ownerUserId, clientInput.sessionId);
    // Routing problems are configuration errors: refuse before anything is stored.
    const resolved = router.resolve(session.model ?? router.defaultModel);
    const turnId = newId();
    const lease = await repositories.turns.acquire(
      clientInput.ownerUserId,
      clientInput.sessionId,
      turnId,
      settings.leaseMs,
    );
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
    try {
      const appended = await repositories.messages.append(input.ownerUserId, input.sessionId, {
        role: 'user',
        contentParts: toContentParts(input.content),
        idempotencyKey: input.idempotencyKey ?? null,
        idempotencyFingerprint: input.idempotencyFingerprint ?? null,
      });
      if (!appended.created) return await this.replay(input, appended.message);
      emit({
        type: 'turn-start',
        turnId,
        sessionId: input.sessionId,
        userMessageId: appended.message.id,
        model: resolved.model,
      });
      const history = await this.history(input, appended.message.seq);
      const system: ChatMessage[] = session.systemPrompt
        ? [{ role: 'system', content: session.systemPrompt }]
        : [];
      return await this.loop(input, emit, {
        heartbeat,
        turnId,
        resolved,
        prefix: [
          ...system,
          ...history,
          { role: 'user', content: typeof input.content === 'string' ? input.content : [...input.content] },
        ],
        userMessage: appended.message,
      });
    } finally {
      await heartbeat.stop();
      await repositories.turns.release(input.sessionId, turnId);
    }
  }

  private async loop(
    input: TurnInput,
    emit: TurnEventSink,
    turn: {
      heartbeat: TurnLeaseHeartbeat;
      turnId: string;
      resolved: ResolvedModel;
      prefix: ChatMessage[];
      userMessage: Message;
    },
  ): Promise<TurnResult> {
    const { repositories, settings } = this.dependencies;
    const { turnId, resolved } = turn;
    const written: Message[] = [turn.userMessage];
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
      const pending = await repositories.messages.append(input.ownerUserId, input.sessionId, {
        role: 'assistant',
        contentParts: [],
        status: 'pending',
        model: resolved.model,
      });
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
        result = await this.callModel(input, emit, pending.message.id, produced, {
          resolved,
          messages: [...turn.prefix, ...compressed.messages],
          lastCall: call === settings.maxModelCalls,
        });
      } catch (error) {
        const turnError = toTurnError(error, input.signal);
        if (turnError.code === 'internal_error')
          this.logger.error({ err: error, turnId }, 'agent turn failed with an exception of our own');
        const failed = await this.finish(input, pending.message.id, {
          status: 'failed',
          error: turnError,
          contentParts: produced.text ? toContentParts(produced.text) : [],
          compressionEvents: compressionEvents as unknown as JsonObject[],
        });
        written.push(failed);
        const recordedError = (failed.error as TurnError | null) ?? turnError;
        emit({ type: 'error', turnId, error: recordedError, messageIds: messageIds() });
        return { turnId, status: 'failed', replayed: false, messages: written, error: recordedError };
      }

      const answered = await this.finish(input, pending.message.id, {
        status: 'complete',
        contentParts: answerText(result) ? toContentParts(answerText(result)) : [],
        toolCalls: result.toolCalls.length ? (result.toolCalls as unknown as JsonObject[]) : null,
        usage: toUsage(result.usage),
        model: result.model || resolved.model,
        compressionEvents: compressionEvents.length ? (compressionEvents as unknown as JsonObject[]) : null,
      });
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
          const failed = await repositories.messages.append(input.ownerUserId, input.sessionId, {
            role: 'tool',
            toolCallId: toolCall.id,
            contentParts: toContentParts(turnError.message),
            status: 'failed',
            error: turnError,
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
   * Records how the pending answer ended. When the turn's lease expired and another process
   * already marked the message interrupted, that stored outcome stands and is returned.
   */
  private async finish(input: TurnInput, messageId: string, outcome: MessageOutcome): Promise<Message> {
    const { messages } = this.dependencies.repositories;
    try {
      return await messages.finish(input.ownerUserId, input.sessionId, messageId, outcome);
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
    const appended = await repositories.messages.append(input.ownerUserId, input.sessionId, {
      role: 'tool',
      toolCallId: toolCall.id,
      contentParts: toContentParts(storedText),
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

  /** The completed conversation before this turn's user message. */
  private async history(input: TurnInput, beforeSequence: number): Promise<ChatMessage[]> {
    const messages: Message[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.dependencies.repositories.messages.listForOwner(
        input.ownerUserId,
        input.sessionId,
        {
          limit: 500,
          ...(cursor && { cursor }),
        },
      );
      for (const message of page.items) if (message.seq < beforeSequence) messages.push(message);
      cursor = page.nextCursor ?? undefined;
      if (page.items.some((message) => message.seq >= beforeSequence)) break;
    } while (cursor);
    return storedMessagesToChat(messages);
  }

  /** The earlier turn that an `Idempotency-Key` names: its user message and what followed it. */
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
