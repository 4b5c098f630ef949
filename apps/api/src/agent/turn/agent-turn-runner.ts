import {
  createModelSummarizer,
  ScratchpadCompressor,
  tokenizerForModel,
  type CompressionEvent,
} from '@agentdesk/compressor';
import { turnErrorCodeOf } from '@agentdesk/api-contract';
import type { ChatMessage } from '@agentdesk/providers';
import { newId, type Message, type TokenUsage } from '@agentdesk/storage';
import pino, { type Logger } from 'pino';
import type { ResolvedModel } from '../../model-access/model-router';
import { agentTurnOrigin } from '../../shared/metering/call-origins';
import { ModelStep } from './model-step';
import { SessionToolResultStore } from './session-tool-result-store';
import { ToolStep } from './tool-step';
import type { TurnEventSink } from './turn-events';
import { toTurnError } from './turn-failure';
import { loadTurnHistory } from './turn-history';
import { TurnHistoryCache } from './turn-history-cache';
import { leaseLostFailure, TurnLeaseHeartbeat } from './turn-lease-heartbeat';
import { TurnTranscript } from './turn-transcript';
import type { AgentTurnRunnerDependencies, TurnInput, TurnResult, TurnState } from './turn-types';

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
    const { repositories, router, settings, usageMeter } = this.dependencies;
    // A turn is named by its user message: the id is made here because the lease needs it before
    // the message is written, and a replay (which reads that message back) answers with it again.
    const turnId = newId();
    // Taking the lease reads the session too (owner-scoped, 404 when not theirs): one statement.
    const lease = await repositories.turnStore.acquire(
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
      await repositories.turnStore.release(clientInput.sessionId, turnId);
      throw error;
    }
    if (lease.interruptedMessages > 0) {
      this.logger.warn(
        { sessionId: clientInput.sessionId, failedMessages: lease.interruptedMessages },
        'took over an expired turn lease: the interrupted turn’s pending messages were marked failed',
      );
    }
    const heartbeat = new TurnLeaseHeartbeat(
      repositories.turnStore,
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
      ...(usageMeter !== undefined && {
        costOf: (usage: TokenUsage) => usageMeter.prices.costOf(resolved.model, usage),
      }),
      leaseReleased: false,
    };
    try {
      const transcript = new TurnTranscript(repositories, input, turn, emit);
      // The user's message and the first pending answer, committed before the model is called. A
      // replayed idempotency key appends nothing: the earlier turn is the answer.
      const started = await transcript.start();
      if (started.kind === 'replayed') return started.result;
      const { userMessage, firstPending } = started;
      emit({
        type: 'turn-start',
        turnId,
        sessionId: input.sessionId,
        userMessageId: userMessage.id,
        model: resolved.model,
      });
      let history: ChatMessage[];
      try {
        history = await loadTurnHistory(
          repositories.transcript,
          {
            ownerUserId: input.ownerUserId,
            sessionId: input.sessionId,
            beforeSeq: userMessage.seq,
            budgetTokens: settings.historyBudgetTokens,
            safetyFactor: tokenizerForModel(resolved.model).safetyFactor,
          },
          this.historyCache,
        );
      } catch (error) {
        return await this.failCall(input, turn, transcript, firstPending, error, {});
      }
      const system: ChatMessage[] = session.systemPrompt
        ? [{ role: 'system', content: session.systemPrompt }]
        : [];
      const prefix: ChatMessage[] = [
        ...system,
        ...history,
        { role: 'user', content: typeof input.content === 'string' ? input.content : [...input.content] },
      ];
      return await this.loop(input, emit, turn, transcript, { prefix, firstPending });
    } finally {
      await heartbeat.stop();
      if (!turn.leaseReleased) await repositories.turnStore.release(input.sessionId, turnId);
    }
  }

  private async loop(
    input: TurnInput,
    emit: TurnEventSink,
    turn: TurnState,
    transcript: TurnTranscript,
    start: { prefix: readonly ChatMessage[]; firstPending: Message },
  ): Promise<TurnResult> {
    const { repositories, settings } = this.dependencies;
    const { resolved } = turn;
    const store = new SessionToolResultStore(repositories, input.ownerUserId, input.sessionId);
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
    const modelStep = new ModelStep(this.dependencies, input, turn, compressor, emit);
    const toolStep = new ToolStep(this.dependencies, input, store, compressor, transcript, emit);
    const scratchpad: ChatMessage[] = [];

    for (let call = 1; call <= settings.maxModelCalls; call++) {
      // Another process owns the session now: write nothing more into it.
      if (turn.heartbeat.lost) return transcript.failed(leaseLostFailure().turnError);
      const pending = call === 1 ? start.firstPending : await transcript.appendPendingAnswer();
      const step = await modelStep.run({
        messageId: pending.id,
        prefix: start.prefix,
        scratchpad,
        lastCall: call === settings.maxModelCalls,
      });
      if (!step.ok) return this.failCall(input, turn, transcript, pending, step.error, step);
      const { result } = step;
      const answered = await transcript.recordAnswer(pending.id, result, step.compressionEvents);
      // The answer came after the lease was taken over and the message marked interrupted.
      if (answered.status !== 'complete')
        return transcript.failed(answered.error ?? leaseLostFailure().turnError);
      emit({ type: 'usage', messageId: pending.id, usage: result.usage });
      if (!result.toolCalls.length) return transcript.complete(result);

      scratchpad.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
      for (const toolCall of result.toolCalls) {
        const tool = await toolStep.run(toolCall);
        if (!tool.ok) return transcript.failed(tool.turnError);
        scratchpad.push(tool.chat);
      }
    }
    // Unreachable in practice: the last call is told not to use tools.
    return transcript.failed({
      code: 'tool_loop_limit',
      message: `The model kept calling tools after ${settings.maxModelCalls} calls`,
    });
  }

  /**
   * Records that a model call (or what prepares it) failed: the pending answer ends `failed` with
   * the error and whatever text streamed, and the turn ends there.
   */
  private async failCall(
    input: TurnInput,
    turn: TurnState,
    transcript: TurnTranscript,
    pending: Message,
    error: unknown,
    partial: { producedText?: string; compressionEvents?: readonly CompressionEvent[] },
  ): Promise<TurnResult> {
    const turnError = toTurnError(error, input.signal);
    if (turnErrorCodeOf(turnError) === 'internal_error')
      this.logger.error(
        { err: error, turnId: turn.turnId },
        'agent turn failed with an exception of our own',
      );
    const failed = await transcript.failAnswer(pending.id, turnError, partial);
    return transcript.failed(failed.error ?? turnError);
  }
}
