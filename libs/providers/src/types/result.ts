import type { SchemaChange, SchemaTarget } from '../schema/schema-change';
import type { ValidationIssue } from '../schema/validate-json';
import type { ToolCall } from './messages';

export type ProviderName = 'openai' | 'anthropic' | 'gemini';

/** Token usage, normalized so the three providers compare. */
export interface Usage {
  /** Every input token, cached or not (OpenAI prompt; Anthropic input + cache creation + cache read). */
  inputTokens: number;
  /** Output tokens excluding thinking/reasoning tokens. */
  outputTokens: number;
  thinkingTokens: number;
  /** The part of `inputTokens` served from a cache. */
  cachedInputTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'refusal' | 'other';

/** A setting that the provider cannot honour; the call goes on without it. */
export interface ChatWarning {
  type: 'unsupported-setting' | 'clamped-setting' | 'schema-lowered' | 'json-prompt-added' | 'other';
  setting?: string;
  message: string;
}

export interface JsonValidation {
  valid: boolean;
  errors: ValidationIssue[];
}

/** What the caller's schema became for this provider. */
export interface SchemaLoweringReport {
  target: SchemaTarget;
  /** The schema actually sent. */
  schema: unknown;
  changes: SchemaChange[];
}

export interface ChatCompletionResult {
  provider: ProviderName;
  model: string;
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  /** The provider's own finish reason, e.g. `end_turn` or `MAX_TOKENS`. */
  rawFinishReason: string | null;
  usage: Usage;
  /**
   * Why the model declined, when the provider says so apart from the answer text: OpenAI's
   * `refusal` (streamed as `refusal-delta` parts, never as text; `text` is then empty and
   * `finishReason` is `refusal`), Anthropic's `stop_details.explanation` on a `refusal` stop, Gemini's
   * `finishMessage` on a safety stop. Anthropic writes the refusal itself as ordinary text, which stays
   * in `text`: only its stop reason, at the end, says the text was a refusal.
   */
  refusal?: string;
  /** Parsed JSON when a JSON response format was requested and the text parsed. */
  json?: unknown;
  /** Validation of `json` against the caller's original schema (or "is an object" for `json_object`). */
  validation?: JsonValidation;
  schemaLowering?: SchemaLoweringReport;
  warnings: ChatWarning[];
  /** The provider-native request body actually sent. */
  request: unknown;
  /**
   * The provider's raw response (non-streaming); for streams `{chunkCount, lastChunk}`, or every
   * decoded chunk with `keepRawStreamChunks`.
   */
  response: unknown;
  /** Attempts made, 1 when the first call succeeded. */
  attempts: number;
  /** True when the answer came from the opt-in repair call. */
  repaired?: boolean;
}

/** The typed parts of a streamed completion, in order: warnings first, finish last. */
export type ChatStreamPart =
  | { type: 'warnings'; warnings: ChatWarning[]; request: unknown; schemaLowering?: SchemaLoweringReport }
  | { type: 'text-delta'; text: string }
  /** A piece of a refusal the provider streams apart from the answer text (OpenAI's `delta.refusal`). */
  | { type: 'refusal-delta'; text: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; id: string; argumentsDelta: string }
  | { type: 'tool-call'; index: number; toolCall: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; result: ChatCompletionResult };
