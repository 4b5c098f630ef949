import { ProviderError } from '../errors/provider-error';
import { defaultRetryPolicy } from '../retry/retry-policy';
import { withRetry } from '../retry/with-retry';
import type { ChatCompletionOptions } from '../types/options';
import type { ChatCompletionResult } from '../types/result';
import { addUsage } from './add-usage';
import { finalizeJson } from './finalize-json';
import type { CompletionPayload, PreparedCall, ProviderAdapter } from './provider-adapter';
import { repairMessages } from './repair-prompt';

async function completeWithRetry(
  adapter: ProviderAdapter,
  prepared: PreparedCall,
  options: ChatCompletionOptions,
) {
  try {
    return await withRetry(() => adapter.complete(prepared, options.signal), {
      provider: adapter.provider,
      policy: { ...defaultRetryPolicy, ...options.retry },
      signal: options.signal,
      toProviderError: adapter.toProviderError,
    });
  } catch (error) {
    if (error instanceof ProviderError) error.request = prepared.body;
    throw error;
  }
}

export function buildResult(
  adapter: ProviderAdapter,
  prepared: PreparedCall,
  payload: CompletionPayload,
  attempts: number,
): ChatCompletionResult {
  return {
    provider: adapter.provider,
    model: payload.model,
    text: payload.text,
    ...(payload.refusal !== undefined && { refusal: payload.refusal }),
    toolCalls: payload.toolCalls,
    finishReason: payload.finishReason,
    rawFinishReason: payload.rawFinishReason,
    usage: payload.usage,
    ...finalizeJson(payload.text, prepared.outputMode, prepared.lowered),
    ...(prepared.schemaLowering && { schemaLowering: prepared.schemaLowering }),
    warnings: prepared.warnings,
    request: prepared.body,
    response: payload.response,
    attempts,
  };
}

/** A non-streaming call: retried per the single policy, JSON finalized, optionally repaired once. */
export async function complete(
  adapter: ProviderAdapter,
  prepared: PreparedCall,
  options: ChatCompletionOptions,
): Promise<ChatCompletionResult> {
  const first = await completeWithRetry(adapter, prepared, options);
  const result = buildResult(adapter, prepared, first.value, first.attempts);
  if (!options.repairInvalidJson || !result.validation || result.validation.valid) return result;

  const repairPrepared = adapter.prepare({
    ...options,
    messages: repairMessages(options.messages, first.value.text, result.validation.errors),
  });
  const repair = await completeWithRetry(adapter, repairPrepared, options);
  const repaired = buildResult(adapter, repairPrepared, repair.value, first.attempts + repair.attempts);
  return { ...repaired, usage: addUsage(result.usage, repaired.usage), repaired: true };
}
