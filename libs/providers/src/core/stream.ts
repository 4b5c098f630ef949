import { abortedError } from '../errors/abort';
import { defaultRetryPolicy } from '../retry/retry-policy';
import { withRetry } from '../retry/with-retry';
import type { ToolCall } from '../types/messages';
import type { ChatCompletionOptions } from '../types/options';
import type { ChatStreamPart, FinishReason, Usage } from '../types/result';
import { buildResult } from './complete';
import { defaultStreamIdleTimeoutMs, StreamIdleGuard } from './stream-idle-guard';
import {
  emptyUsage,
  type PreparedCall,
  type ProviderAdapter,
  type StreamDecoder,
  type StreamDelta,
} from './provider-adapter';

interface OpenedStream {
  iterator: AsyncIterator<unknown>;
  first: IteratorResult<unknown>;
  decoder: StreamDecoder<unknown>;
}

/**
 * Opening the stream and reading its first chunk are retried; after that nothing is, because the
 * caller has already seen output that a second attempt would contradict.
 */
function openWithRetry(
  adapter: ProviderAdapter,
  prepared: PreparedCall,
  options: ChatCompletionOptions,
  idle: StreamIdleGuard,
) {
  return withRetry<OpenedStream>(
    async () => {
      const signal = idle.startAttempt();
      try {
        const opened = await adapter.openStream(prepared, signal);
        const iterator = opened.chunks[Symbol.asyncIterator]();
        return { iterator, first: await iterator.next(), decoder: opened.decoder };
      } catch (error) {
        // A silent provider is a timeout (retryable), not the caller's abort.
        throw idle.timedOut ? idle.timeoutError(adapter.provider, error) : error;
      }
    },
    {
      policy: { ...defaultRetryPolicy, ...options.retry },
      signal: options.signal,
      toProviderError: adapter.toProviderError,
    },
  );
}

/** Streams typed parts: warnings first, then text and tool-call deltas, the finished tool calls, usage and finish. */
export async function* stream(
  adapter: ProviderAdapter,
  prepared: PreparedCall,
  options: ChatCompletionOptions,
): AsyncIterable<ChatStreamPart> {
  yield {
    type: 'warnings',
    warnings: prepared.warnings,
    request: prepared.body,
    ...(prepared.schemaLowering && { schemaLowering: prepared.schemaLowering }),
  };
  const idle = new StreamIdleGuard(options.streamIdleTimeoutMs ?? defaultStreamIdleTimeoutMs, options.signal);
  let opened: OpenedStream;
  let attempts: number;
  try {
    ({ value: opened, attempts } = await openWithRetry(adapter, prepared, options, idle));
  } catch (error) {
    idle.stop();
    throw error;
  }

  let text = '';
  let model = String(prepared.body['model'] ?? '');
  let usage: Usage = emptyUsage;
  let rawFinishReason: string | null = null;
  let finishReason: FinishReason = 'other';
  const toolCalls = new Map<number, ToolCall>();
  const chunks: unknown[] = [];
  const deltas: StreamDelta[] = [];

  // Applies one delta to the running state; returns the part to send to the caller, if any.
  const apply = (delta: StreamDelta): ChatStreamPart | undefined => {
    switch (delta.type) {
      case 'model':
        model = delta.model;
        return undefined;
      case 'text-delta':
        text += delta.text;
        return delta;
      case 'tool-call-start':
        toolCalls.set(delta.index, { id: delta.id, name: delta.name, arguments: '' });
        return delta;
      case 'tool-call-delta': {
        const call = toolCalls.get(delta.index);
        if (!call) return undefined;
        call.arguments += delta.argumentsDelta;
        return {
          type: 'tool-call-delta',
          index: delta.index,
          id: call.id,
          argumentsDelta: delta.argumentsDelta,
        };
      }
      case 'usage':
        usage = delta.usage;
        return undefined;
      case 'finish':
        rawFinishReason = delta.rawFinishReason;
        finishReason = delta.finishReason;
        return undefined;
    }
  };

  try {
    for (let next = opened.first; !next.done; next = await opened.iterator.next()) {
      idle.touch();
      chunks.push(next.value);
      deltas.length = 0;
      opened.decoder.decode(next.value, deltas);
      for (const delta of deltas) {
        const part = apply(delta);
        if (part) yield part;
      }
    }
    // The OpenAI and Anthropic SDKs end a stream quietly when its signal aborts: a stop is not an end.
    if (options.signal?.aborted) throw abortedError(adapter.provider, options.signal.reason);
    if (idle.timedOut) throw idle.timeoutError(adapter.provider, undefined);
    deltas.length = 0;
    opened.decoder.finish(deltas);
    for (const delta of deltas) apply(delta);
  } catch (error) {
    if (options.signal?.aborted) throw abortedError(adapter.provider, error);
    if (idle.timedOut) throw idle.timeoutError(adapter.provider, error);
    throw adapter.toProviderError(error);
  } finally {
    idle.stop();
  }

  const orderedCalls = [...toolCalls.entries()].sort(([left], [right]) => left - right);
  for (const [index, toolCall] of orderedCalls) yield { type: 'tool-call', index, toolCall };
  yield { type: 'usage', usage };
  const result = buildResult(
    adapter,
    prepared,
    {
      model,
      text,
      toolCalls: orderedCalls.map(([, call]) => call),
      rawFinishReason,
      finishReason,
      usage,
      response: chunks,
    },
    attempts,
  );
  yield { type: 'finish', result };
}
