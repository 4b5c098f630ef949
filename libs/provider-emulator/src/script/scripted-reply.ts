import type { ProviderName } from '../types';

/**
 * Which requests a scripted reply may answer. Every field given must match; an empty or missing
 * match accepts any request. The first queued reply that matches a request answers it.
 */
export interface ReplyMatch {
  provider?: ProviderName;
  /** Exact model name: the body's `model` (OpenAI, Anthropic) or the path segment (Gemini). */
  model?: string;
  /** Only streaming (`true`) or only non-streaming (`false`) requests. */
  stream?: boolean;
}

/**
 * Fields every scripted reply accepts.
 */
export interface ReplyCommon {
  match?: ReplyMatch;
  /** How many requests this reply answers before it leaves the queue; default 1. `'always'` never leaves. */
  times?: number | 'always';
  /** Wait this long before sending the status line (a slow time-to-first-byte). */
  delayMs?: number;
  /** Extra response headers, e.g. `{ 'x-should-retry': 'false' }`. */
  headers?: Record<string, string>;
}

/**
 * Token counts in one provider-neutral model; each provider's usage object is derived from it:
 *
 * | field | OpenAI | Anthropic | Gemini |
 * |---|---|---|---|
 * | `inputTokens` (all input, incl. cached) | `prompt_tokens` | `input_tokens` + cache read + cache write | `promptTokenCount` |
 * | `cachedInputTokens` | `prompt_tokens_details.cached_tokens` | `cache_read_input_tokens` | `cachedContentTokenCount` |
 * | `cacheCreationInputTokens` | — | `cache_creation_input_tokens` | — |
 * | `outputTokens` (all output, incl. reasoning) | `completion_tokens` | `output_tokens` | `candidatesTokenCount` + `thoughtsTokenCount` |
 * | `reasoningTokens` (reasoning / thinking) | `completion_tokens_details.reasoning_tokens` | `output_tokens_details.thinking_tokens` | `thoughtsTokenCount` |
 *
 * Omitted counts are estimated from the request and reply sizes (about four characters a token).
 */
export interface UsageOverride {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

/**
 * A failure injected into a streamed answer. `afterChunks` counts every SSE event already written,
 * including the opening ones (OpenAI's role chunk; Anthropic's `message_start`, `content_block_start`
 * and `ping`); it is clamped to the number of events the answer has. Ignored for non-streaming requests.
 */
export type StreamFault =
  /** Destroys the socket mid-body: the client sees a terminated connection. */
  | { kind: 'cut'; afterChunks: number }
  /** Stops sending but keeps the connection open (an idle stream), until the client gives up. */
  | { kind: 'stall'; afterChunks: number }
  /** Sends one event whose data is not JSON (default `{"truncated": `), then the rest of the stream. */
  | { kind: 'malformed'; afterChunks: number; data?: string }
  /**
   * Sends the provider's in-stream error event and ends the stream: OpenAI `data: {"error":{…}}`,
   * Anthropic `event: error`, Gemini `data: {"error":{code,message,status}}`.
   * `type` is the OpenAI/Anthropic error type or the Gemini status; `status` picks defaults for them.
   */
  | { kind: 'error-event'; afterChunks: number; status?: number; type?: string; message?: string };

/** How a generated answer ended, mapped per provider (e.g. `length` → `length` / `max_tokens` / `MAX_TOKENS`). */
export type ScriptedFinishReason = 'stop' | 'length' | 'content-filter';

/** Fields of replies that produce a model answer (as opposed to errors and hangs). */
export interface AnswerReplyCommon extends ReplyCommon {
  usage?: UsageOverride;
  /** Overrides the mapped finish reason; tool-call replies default to the provider's tool reason. */
  finishReason?: ScriptedFinishReason;
  /** Sent verbatim as the provider's finish/stop reason, winning over `finishReason`. */
  rawFinishReason?: string;
  /** Characters per streamed text (or tool-argument) delta; default is the emulator's `defaultChunkSize`. */
  chunkSize?: number;
  /** Pause between streamed events. */
  chunkDelayMs?: number;
  streamFault?: StreamFault;
}

/** A plain text answer. */
export interface TextReply extends AnswerReplyCommon {
  kind: 'text';
  text: string;
}

/**
 * A safety refusal. OpenAI: `content:null, refusal:"…"`, finish `stop`. Anthropic: stop reason
 * `refusal` (with `stop_details` on 2026-10-21) and the text as a text block. Gemini: a candidate
 * with finish reason `SAFETY`, no content, and the text as `finishMessage`.
 */
export interface RefusalReply extends AnswerReplyCommon {
  kind: 'refusal';
  refusal: string;
}

/** One function call the model makes. */
export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Provider-style id to use (`call_…`, `toolu_…`); generated when omitted. Gemini sends no ids. */
  id?: string;
}

/** One or several tool calls, optionally preceded by text. */
export interface ToolCallsReply extends AnswerReplyCommon {
  kind: 'tool-calls';
  toolCalls: ScriptedToolCall[];
  text?: string;
}

/**
 * A JSON answer. With neither `value` nor `text`, an instance of the schema the request carried is
 * generated (OpenAI `response_format.json_schema.schema`, Anthropic `output_config.format.schema` or
 * `output_format.schema`, Gemini `responseJsonSchema` or `responseSchema`); a request without a
 * schema gets a small object. `value` is serialized as given; `text` is sent verbatim, so it may be
 * deliberately invalid JSON for repair tests.
 */
export interface JsonReply extends AnswerReplyCommon {
  kind: 'json';
  value?: unknown;
  text?: string;
}

/**
 * An HTTP error in the provider's exact body shape. `type` is the OpenAI/Anthropic error type or the
 * Gemini status (defaults follow the HTTP status, e.g. 529 → `overloaded_error`). `code` and `param`
 * are OpenAI-only. Gemini gets a `RetryInfo` detail from `retryDelay` (e.g. `"7s"`) or `retryAfterSeconds`.
 */
export interface ErrorReply extends ReplyCommon {
  kind: 'error';
  status: number;
  message?: string;
  type?: string;
  code?: string | null;
  param?: string | null;
  /** Sends `retry-after: <seconds>`. */
  retryAfterSeconds?: number;
  /** Sends `retry-after-ms: <milliseconds>` (read by the OpenAI and Anthropic SDKs). */
  retryAfterMs?: number;
  retryDelay?: string;
  /** Extra Gemini `error.details` entries. */
  details?: unknown[];
}

/** Never answers; the request stays open until the client aborts or the emulator closes. */
export interface HangReply extends ReplyCommon {
  kind: 'hang';
}

/**
 * One queued answer for the emulator, discriminated by `kind`. Examples:
 *
 * ```ts
 * emulator.script(
 *   { kind: 'text', text: 'Hello', chunkSize: 2 },
 *   { kind: 'tool-calls', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
 *   { kind: 'json' },                                     // conforms to the request's schema
 *   { kind: 'json', text: '{"ok":' },                      // invalid on purpose
 *   { kind: 'error', status: 429, retryAfterSeconds: 0, match: { provider: 'openai' } },
 *   { kind: 'text', text: 'partial', streamFault: { kind: 'cut', afterChunks: 2 } },
 *   { kind: 'hang' },
 * );
 * ```
 */
export type ScriptedReply = TextReply | RefusalReply | ToolCallsReply | JsonReply | ErrorReply | HangReply;

/** The replies that produce a model answer. */
export type AnswerReply = TextReply | RefusalReply | ToolCallsReply | JsonReply;
