import { complete } from './core/complete';
import { resolveAdapter, type SupportedClient } from './core/resolve-adapter';
import { stream } from './core/stream';
import { assertCallSchemasWithinLimits } from './schema/schema-limits';
import type { ChatCompletionOptions } from './types/options';
import type { ChatCompletionResult, ChatStreamPart } from './types/result';

/**
 * One chat call over the official OpenAI, Anthropic or Gemini client (dispatched by client type).
 *
 * Builds the provider-native request (system role, tools, structured output lowered to what the
 * provider accepts), calls with the single retry policy (the SDK's own retries are off), and
 * normalizes text, tool calls, finish reason and usage. JSON answers are validated against the
 * caller's original schema.
 *
 * With `stream: true` it returns an async iterable of typed parts (warnings first, finish last);
 * otherwise a promise of the result. An unrecognized client throws a `TypeError` at once, a schema
 * past `MAX_SCHEMA_DEPTH`/`MAX_SCHEMA_NODES` a `SchemaLoweringError`; provider failures reject (or
 * throw from the iterator) as `ProviderError`. A bug in this process is never a `ProviderError`.
 */
export function executeChatCompletion(
  client: SupportedClient,
  options: ChatCompletionOptions & { stream: true },
): AsyncIterable<ChatStreamPart>;
export function executeChatCompletion(
  client: SupportedClient,
  options: ChatCompletionOptions & { stream?: false },
): Promise<ChatCompletionResult>;
export function executeChatCompletion(
  client: SupportedClient,
  options: ChatCompletionOptions,
): Promise<ChatCompletionResult> | AsyncIterable<ChatStreamPart>;
export function executeChatCompletion(
  client: SupportedClient,
  options: ChatCompletionOptions,
): Promise<ChatCompletionResult> | AsyncIterable<ChatStreamPart> {
  const adapter = resolveAdapter(client);
  assertCallSchemasWithinLimits(options);
  return options.stream
    ? stream(adapter, adapter.prepareStream(options), options)
    : complete(adapter, adapter.prepare(options), options);
}
