import type { CompressionEvent, ScratchpadCompressor } from '@agentdesk/compressor';
import { executeChatCompletion, type ChatCompletionResult, type ChatMessage } from '@agentdesk/providers';
import { meterCompletion } from '../../shared/metering/meter-model-call';
import type { TurnEventSink } from './turn-events';
import { TurnFailure } from './turn-failure';
import type { AgentTurnRunnerDependencies, TurnInput, TurnState } from './turn-types';

/** One model call of a turn: what it is sent besides the compressed scratchpad. */
export interface ModelCall {
  /** The pending answer the call's events name. */
  readonly messageId: string;
  /** System prompt, history and the user's message: the same for every call of the turn. */
  readonly prefix: readonly ChatMessage[];
  /** This turn's tool calls and results so far, compressed to the budget before the call. */
  readonly scratchpad: readonly ChatMessage[];
  /** The last call allowed: the model must answer instead of asking for more tools. */
  readonly lastCall: boolean;
}

/** How a model call ended: its result, or the error with what streamed before it. */
export type ModelStepOutcome =
  | {
      readonly ok: true;
      readonly result: ChatCompletionResult;
      readonly compressionEvents: CompressionEvent[];
    }
  | {
      readonly ok: false;
      readonly error: unknown;
      readonly producedText: string;
      readonly compressionEvents: CompressionEvent[];
    };

/**
 * A turn's model calls: compress the tool scratchpad to its budget (a `compression` event when it
 * did something), call the model — streamed as `text-delta` and `tool-call` events for SSE clients,
 * in one call otherwise — and meter the call. Never throws: a failure comes back with what the
 * model produced before it, for the transcript.
 */
export class ModelStep {
  constructor(
    private readonly dependencies: AgentTurnRunnerDependencies,
    private readonly input: TurnInput,
    private readonly turn: TurnState,
    private readonly compressor: ScratchpadCompressor,
    private readonly emit: TurnEventSink,
  ) {}

  async run(call: ModelCall): Promise<ModelStepOutcome> {
    const { settings, usageMeter } = this.dependencies;
    const produced = { text: '' };
    let compressionEvents: CompressionEvent[] = [];
    try {
      const compressed = await this.compressor.compress({
        entries: call.scratchpad,
        budgetTokens: settings.scratchpadBudgetTokens,
        signal: this.input.signal,
      });
      compressionEvents = compressed.event.method === 'none' ? [] : [compressed.event];
      for (const event of compressionEvents) this.emit({ type: 'compression', event });
      const result = await meterCompletion(
        usageMeter,
        this.turn.usageOrigin,
        this.callModel(call.messageId, produced, [...call.prefix, ...compressed.messages], call.lastCall),
        this.input.signal,
      );
      return { ok: true, result, compressionEvents };
    } catch (error) {
      return { ok: false, error, producedText: produced.text, compressionEvents };
    }
  }

  private async callModel(
    messageId: string,
    produced: { text: string },
    messages: ChatMessage[],
    lastCall: boolean,
  ): Promise<ChatCompletionResult> {
    const { input, emit } = this;
    const { resolved } = this.turn;
    const options = {
      modelParams: { model: resolved.model },
      messages,
      tools: this.dependencies.tools.definitions(),
      // On the last allowed call the model must answer instead of asking for more tools.
      toolChoice: lastCall ? ('none' as const) : ('auto' as const),
      signal: input.signal,
      streamIdleTimeoutMs: this.dependencies.router.requestTimeoutMs,
      ...(input.responseFormat && { responseFormat: input.responseFormat }),
    };
    if (!input.stream) {
      const result = await executeChatCompletion(resolved.client, { ...options, stream: false });
      for (const toolCall of result.toolCalls) emit({ type: 'tool-call', messageId, toolCall });
      return result;
    }
    for await (const part of executeChatCompletion(resolved.client, { ...options, stream: true })) {
      // A turn has no refusal event: a refusal streamed apart from the text (OpenAI's) is the answer's words.
      if (part.type === 'text-delta' || part.type === 'refusal-delta') {
        produced.text += part.text;
        emit({ type: 'text-delta', messageId, text: part.text });
      } else if (part.type === 'tool-call') emit({ type: 'tool-call', messageId, toolCall: part.toolCall });
      else if (part.type === 'finish') return part.result;
    }
    throw new TurnFailure({ code: 'provider_error', message: 'The provider stream ended without a result' });
  }
}
