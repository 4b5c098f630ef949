import type { JsonSchema } from './json-schema';
import type { ChatMessage } from './messages';
import type { RetryPolicy } from '../retry/retry-policy';

/** Model defaults; per-call `maxTokens`/`temperature` override them. */
export interface ModelParams {
  model: string;
  temperature?: number;
  maxTokens?: number;
}

/**
 * Structured output in OpenAI's shape, accepted for every provider.
 * - `{type:'json_schema', json_schema:{name, schema, strict?}}`: OpenAI's envelope.
 * - `{type:'json_schema', schema, name?, strict?}`: the flat form; wrapped for OpenAI.
 */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name?: string; description?: string; schema?: JsonSchema; strict?: boolean | null };
    }
  | { type: 'json_schema'; schema: JsonSchema; name?: string; description?: string; strict?: boolean | null };

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ChatCompletionOptions {
  modelParams: ModelParams;
  messages: readonly ChatMessage[];
  stream?: boolean;
  maxTokens?: number;
  temperature?: number;
  responseFormat?: ResponseFormat;
  /**
   * Gemini and Anthropic accept no recursive schema: a recursive response or tool schema is unrolled
   * this many levels deep (1–10, default 3) and cut below; see `lowerJsonSchema`. OpenAI keeps recursion.
   */
  schemaRecursionDepth?: number;
  tools?: readonly ToolDefinition[];
  toolChoice?: ToolChoice;
  signal?: AbortSignal;
  /**
   * Streaming: the longest silence allowed before the first chunk and between chunks; past it the
   * call fails with a `timeout` ProviderError (retried only before the first chunk). Default 60 s.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Streaming: keep every raw provider chunk in `result.response` (for debugging). Off by default:
   * holding them costs measurable CPU per chunk; the result then carries the chunk count and the
   * last chunk.
   */
  keepRawStreamChunks?: boolean;
  /** Overrides of the single retry policy (attempts, waits). */
  retry?: Partial<RetryPolicy>;
  /**
   * When the JSON result fails validation, send the validation errors back to the model once and
   * use its corrected answer. Off by default: it costs a second call. Non-streaming only.
   */
  repairInvalidJson?: boolean;
}
