import type { ProviderError } from '../errors/provider-error';
import type { OutputMode } from '../response-format/normalize-response-format';
import type { LoweredSchema } from '../schema/schema-change';
import type { ToolCall } from '../types/messages';
import type { ChatCompletionOptions } from '../types/options';
import type { ChatWarning, FinishReason, ProviderName, SchemaLoweringReport, Usage } from '../types/result';

/**
 * A provider-native request, ready to send, and what was decided while building it. `Body` is the
 * SDK's own parameter type for the call, so the compiler checks what we send against the SDK.
 */
export interface PreparedCall<Body = unknown> {
  /** The request body exactly as sent (reported with results and errors). */
  body: Body;
  /**
   * The model the request names: the stream result's model until a chunk names one. Empty for
   * Gemini, whose requests name no model (it is bound to the client).
   */
  model: string;
  warnings: ChatWarning[];
  outputMode: OutputMode;
  /** Present when the caller's schema was lowered; its `restore` maps the output back. */
  lowered?: LoweredSchema;
  schemaLowering?: SchemaLoweringReport;
}

/** A provider's complete answer, already normalized. */
export interface CompletionPayload {
  model: string;
  text: string;
  /** The refusal sent apart from the text (see `ChatCompletionResult.refusal`). */
  refusal?: string;
  toolCalls: ToolCall[];
  rawFinishReason: string | null;
  finishReason: FinishReason;
  usage: Usage;
  response: unknown;
}

/** What a provider's stream decoder yields; the shared stream runner assembles the rest. */
export type StreamDelta =
  | { type: 'text-delta'; text: string }
  | { type: 'refusal-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'usage'; usage: Usage }
  | {
      type: 'finish';
      rawFinishReason: string | null;
      finishReason: FinishReason;
      /** A refusal explanation that comes with the stop itself (Anthropic's, Gemini's `finishMessage`). */
      refusal?: string;
    }
  | { type: 'model'; model: string };

/**
 * Turns one provider's stream chunks into deltas, synchronously. A decoder instead of an async
 * generator per provider: every generator layer costs a few microtask hops per chunk.
 */
export interface StreamDecoder<Chunk> {
  /** Appends the deltas this chunk carries to `out`; throws for an error sent inside the stream. */
  decode(chunk: Chunk, out: StreamDelta[]): void;
  /** Appends what is only known at the end (usage, finish). */
  finish(out: StreamDelta[]): void;
}

/** The provider's chunk stream and the decoder for it. */
export interface OpenedProviderStream {
  readonly chunks: AsyncIterable<unknown>;
  readonly decoder: StreamDecoder<unknown>;
}

/**
 * One provider's request building, calling, decoding and error mapping. `CompleteBody` and
 * `StreamBody` are the SDK's parameter types for a plain and a streamed call.
 *
 * The core holds adapters as `ProviderAdapter` (bodies `unknown`) and only ever hands an adapter
 * back the calls that adapter prepared.
 */
export interface ProviderAdapter<CompleteBody = unknown, StreamBody = unknown> {
  readonly provider: ProviderName;
  /** The request for a plain call (`options.stream` is not looked at). */
  prepare(options: ChatCompletionOptions): PreparedCall<CompleteBody>;
  /** The request for a streamed call. */
  prepareStream(options: ChatCompletionOptions): PreparedCall<StreamBody>;
  complete(prepared: PreparedCall<CompleteBody>, signal: AbortSignal | undefined): Promise<CompletionPayload>;
  /** Opens the stream; resolves once the provider accepted the request (HTTP status known). */
  openStream(
    prepared: PreparedCall<StreamBody>,
    signal: AbortSignal | undefined,
  ): Promise<OpenedProviderStream>;
  /** The provider's failure as a `ProviderError`; undefined when the error is our own (rethrown as it is, never retried). */
  toProviderError(error: unknown): ProviderError | undefined;
}

export const emptyUsage: Usage = { inputTokens: 0, outputTokens: 0, thinkingTokens: 0, cachedInputTokens: 0 };

/** A prepared call, with the lowering report derived from the lowered schema when there is one. */
export function preparedCall<Body>(
  body: Body,
  model: string,
  warnings: ChatWarning[],
  outputMode: OutputMode,
  lowered: LoweredSchema | undefined,
): PreparedCall<Body> {
  if (!lowered) return { body, model, warnings, outputMode };
  return {
    body,
    model,
    warnings,
    outputMode,
    lowered,
    schemaLowering: { target: lowered.target, schema: lowered.schema, changes: lowered.changes },
  };
}
