export type { JsonSchema, JsonValue } from './types/json-schema';
export type {
  ChatMessage,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  ToolCall,
  TextPart,
  ImagePart,
  UserContentPart,
} from './types/messages';
export type {
  ChatCompletionOptions,
  ModelParams,
  ResponseFormat,
  ToolDefinition,
  ToolChoice,
} from './types/options';
export type {
  ChatCompletionResult,
  ChatStreamPart,
  ChatWarning,
  FinishReason,
  JsonValidation,
  ProviderName,
  SchemaLoweringReport,
  Usage,
} from './types/result';
export type {
  SchemaChange,
  SchemaChangeAction,
  SchemaTarget,
  LoweredSchema,
  LoweringOptions,
} from './schema/schema-change';
export { DEFAULT_RECURSION_DEPTH, MAX_RECURSION_DEPTH } from './schema/recursion-unroll';
export type { ValidationIssue } from './schema/validate-json';
export { ProviderError, isRetryableStatus } from './errors/provider-error';
export { defaultRetryPolicy, type RetryPolicy } from './retry/retry-policy';
export { executeChatCompletion } from './execute-chat-completion';
export type { SupportedClient } from './core/resolve-adapter';
export type { OpenAIChatClient } from './openai/openai-adapter';
export type { AnthropicMessagesClient } from './anthropic/anthropic-adapter';
export type { GeminiModelClient } from './gemini/gemini-adapter';
export { lowerJsonSchema } from './schema/lower-json-schema';
export { SchemaLoweringError, type SchemaLoweringErrorCode } from './schema/schema-lowering-error';
export { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, schemaLimitProblem } from './schema/schema-limits';
export { targetKeywords } from './schema/target-keywords';
export { validateJson } from './schema/validate-json';
export {
  upstreamHttp,
  type UpstreamFetch,
  type UpstreamHttp,
  type UpstreamHttpOptions,
} from './http/upstream-fetch';
