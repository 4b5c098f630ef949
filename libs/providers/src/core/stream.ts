import { abortedError } from '../errors/abort';
import { ProviderError } from '../errors/provider-error';
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
      provider: adapter.provider,
      policy: { ...defaultRetryPolicy, ...options.retry },
      signal: options.signal,
      toProviderError: adapter.toProviderError,
    },
  );
}

/**
 * The running state of one streamed completion: what has been decoded so far and what the caller
 * has not read yet. A hand-written async iterator rather than an async generator: a generator adds
 * several microtask hops to every part, which is most of the per-chunk cost of a fast provider.
 */
class CompletionStream implements AsyncIterator<ChatStreamPart> {
  #phase: 'start' | 'open' | 'streaming' | 'done' = 'start';
  #opened: OpenedStream | undefined;
  #attempts = 0;
  readonly #idle: StreamIdleGuard;
  readonly #pending: ChatStreamPart[] = [];
  #pendingIndex = 0;
  readonly #deltas: StreamDelta[] = [];
  readonly #chunks: unknown[] = [];
  #chunkCount = 0;
  #lastChunk: unknown;
  readonly #toolCalls = new Map<number, ToolCall>();
  #text = '';
  #refusal = '';
  #stopRefusal: string | undefined;
  #model: string;
  #usage: Usage = emptyUsage;
  #rawFinishReason: string | null = null;
  #finishReason: FinishReason = 'other';

  constructor(
    private readonly adapter: ProviderAdapter,
    private readonly prepared: PreparedCall,
    private readonly options: ChatCompletionOptions,
  ) {
    this.#idle = new StreamIdleGuard(
      options.streamIdleTimeoutMs ?? defaultStreamIdleTimeoutMs,
      options.signal,
    );
    this.#model = prepared.model;
  }

  // Not `async`: returning the promise of `#read` from an async function would wrap it in another
  // promise and cost two more microtask hops per part.
  next(): Promise<IteratorResult<ChatStreamPart>> {
    const queued = this.#dequeue();
    if (queued) return Promise.resolve(queued);
    switch (this.#phase) {
      case 'start':
        this.#phase = 'open';
        return Promise.resolve({
          value: {
            type: 'warnings',
            warnings: this.prepared.warnings,
            request: this.prepared.body,
            ...(this.prepared.schemaLowering && { schemaLowering: this.prepared.schemaLowering }),
          },
          done: false,
        });
      case 'open':
        return this.#open();
      case 'streaming':
        return this.#read(undefined);
      case 'done':
        return Promise.resolve({ value: undefined, done: true });
    }
  }

  async #open(): Promise<IteratorResult<ChatStreamPart>> {
    try {
      const retried = await openWithRetry(this.adapter, this.prepared, this.options, this.#idle);
      this.#opened = retried.value;
      this.#attempts = retried.attempts;
    } catch (error) {
      this.#close();
      if (error instanceof ProviderError) error.request = this.prepared.body;
      throw error;
    }
    this.#phase = 'streaming';
    return this.#read(this.#opened.first);
  }

  /** The caller stopped reading (e.g. `break`): release the provider stream and the idle timer. */
  async return(): Promise<IteratorResult<ChatStreamPart>> {
    const iterator = this.#opened?.iterator;
    this.#close();
    await iterator?.return?.();
    return { value: undefined, done: true };
  }

  #dequeue(): IteratorResult<ChatStreamPart> | undefined {
    if (this.#pendingIndex < this.#pending.length)
      return { value: this.#pending[this.#pendingIndex++]!, done: false };
    this.#pending.length = 0;
    this.#pendingIndex = 0;
    return undefined;
  }

  /** Reads chunks until one yields a part for the caller (or the stream ends). */
  async #read(first: IteratorResult<unknown> | undefined): Promise<IteratorResult<ChatStreamPart>> {
    const opened = this.#opened!;
    let next = first;
    try {
      for (;;) {
        next ??= await opened.iterator.next();
        if (next.done) {
          // The OpenAI and Anthropic SDKs end a stream quietly when its signal aborts: a stop is not an end.
          if (this.options.signal?.aborted)
            throw abortedError(this.adapter.provider, this.options.signal.reason);
          if (this.#idle.timedOut) throw this.#idle.timeoutError(this.adapter.provider, undefined);
          this.#deltas.length = 0;
          opened.decoder.finish(this.#deltas);
          for (const delta of this.#deltas) this.#apply(delta);
          this.#finish();
          return this.#dequeue() ?? { value: undefined, done: true };
        }
        this.#idle.touch();
        // Keeping every chunk alive makes them survive young-generation GC: opt-in only.
        if (this.options.keepRawStreamChunks) this.#chunks.push(next.value);
        this.#chunkCount++;
        this.#lastChunk = next.value;
        this.#deltas.length = 0;
        opened.decoder.decode(next.value, this.#deltas);
        for (const delta of this.#deltas) {
          const part = this.#apply(delta);
          if (part) this.#pending.push(part);
        }
        const queued = this.#dequeue();
        if (queued) return queued;
        next = undefined;
      }
    } catch (error) {
      this.#close();
      if (this.options.signal?.aborted) throw abortedError(this.adapter.provider, error);
      if (this.#idle.timedOut) throw this.#idle.timeoutError(this.adapter.provider, error);
      // An exception of our own (e.g. a decoder bug) is not the provider's: it leaves unchanged.
      throw this.adapter.toProviderError(error) ?? error;
    }
  }

  /** Applies one delta to the running state; returns the part to send to the caller, if any. */
  #apply(delta: StreamDelta): ChatStreamPart | undefined {
    switch (delta.type) {
      case 'model':
        this.#model = delta.model;
        return undefined;
      case 'text-delta':
        this.#text += delta.text;
        return delta;
      case 'refusal-delta':
        this.#refusal += delta.text;
        return delta;
      case 'tool-call-start':
        this.#toolCalls.set(delta.index, { id: delta.id, name: delta.name, arguments: '' });
        return delta;
      case 'tool-call-delta': {
        const call = this.#toolCalls.get(delta.index);
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
        this.#usage = delta.usage;
        return undefined;
      case 'finish':
        this.#rawFinishReason = delta.rawFinishReason;
        this.#finishReason = delta.finishReason;
        this.#stopRefusal = delta.refusal;
        return undefined;
    }
  }

  /** Queues the closing parts: the finished tool calls, usage, and the result. */
  #finish(): void {
    this.#close();
    const orderedCalls = [...this.#toolCalls.entries()].sort(([left], [right]) => left - right);
    for (const [index, toolCall] of orderedCalls) this.#pending.push({ type: 'tool-call', index, toolCall });
    this.#pending.push({ type: 'usage', usage: this.#usage });
    const refusal = this.#refusal || this.#stopRefusal;
    const result = buildResult(
      this.adapter,
      this.prepared,
      {
        model: this.#model,
        text: this.#text,
        ...(refusal && { refusal }),
        toolCalls: orderedCalls.map(([, call]) => call),
        rawFinishReason: this.#rawFinishReason,
        finishReason: this.#finishReason,
        usage: this.#usage,
        response: this.options.keepRawStreamChunks
          ? this.#chunks
          : { chunkCount: this.#chunkCount, lastChunk: this.#lastChunk },
      },
      this.#attempts,
    );
    this.#pending.push({ type: 'finish', result });
  }

  #close(): void {
    this.#phase = 'done';
    this.#idle.stop();
  }
}

/** Streams typed parts: warnings first, then text, refusal and tool-call deltas, the finished tool calls, usage and finish. */
export function stream(
  adapter: ProviderAdapter,
  prepared: PreparedCall,
  options: ChatCompletionOptions,
): AsyncIterable<ChatStreamPart> {
  return { [Symbol.asyncIterator]: () => new CompletionStream(adapter, prepared, options) };
}
