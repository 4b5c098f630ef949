import type { ChatCompletionResult, ChatStreamPart } from '@agentdesk/providers';
import type { UsageStatus } from '@agentdesk/storage';
import { performance } from 'node:perf_hooks';
import { NO_TOKENS, type ModelCallOrigin } from './metered-call';
import type { UsageMeter } from './usage-meter';

function elapsedSince(startedAt: number): number {
  return Math.max(0, Math.round(performance.now() - startedAt));
}

/** A call that ended without an answer: cancelled when its caller went away, failed otherwise. */
function failureStatus(signal: AbortSignal | undefined): UsageStatus {
  return signal?.aborted === true ? 'cancelled' : 'failed';
}

/**
 * Meters one unstreamed call (or anything that settles with a result): returns `call` itself, and
 * records its outcome when it settles. With no meter (unit tests of a caller) nothing is recorded.
 */
export function meterCompletion<T extends Pick<ChatCompletionResult, 'usage'>>(
  meter: UsageMeter | undefined,
  origin: ModelCallOrigin,
  call: Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (meter === undefined) return call;
  const startedAt = performance.now();
  call.then(
    (result) => meter.record(origin, 'ok', result.usage, elapsedSince(startedAt)),
    () => meter.record(origin, failureStatus(signal), NO_TOKENS, elapsedSince(startedAt)),
  );
  return call;
}

/**
 * Meters one streamed call: the same parts, recorded once when the `finish` part passes (its
 * usage), or when the stream fails, ends without a result or is abandoned by its reader. Each
 * part costs one `then`, no generator.
 */
export function meterStream(
  meter: UsageMeter,
  origin: ModelCallOrigin,
  parts: AsyncIterable<ChatStreamPart>,
  signal?: AbortSignal,
): AsyncIterable<ChatStreamPart> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = parts[Symbol.asyncIterator]();
      const startedAt = performance.now();
      let recorded = false;
      const recordOnce = (status: UsageStatus, usage = NO_TOKENS) => {
        if (recorded) return;
        recorded = true;
        meter.record(origin, status, usage, elapsedSince(startedAt));
      };
      return {
        next: () =>
          iterator.next().then(
            (step) => {
              if (step.done === true) recordOnce(failureStatus(signal));
              else if (step.value.type === 'finish') recordOnce('ok', step.value.result.usage);
              return step;
            },
            (error: unknown) => {
              recordOnce(failureStatus(signal));
              throw error;
            },
          ),
        // The reader stopped early (the client left, or the answer failed a check mid-way).
        return: (value?: unknown) => {
          recordOnce(failureStatus(signal));
          return iterator.return !== undefined
            ? iterator.return(value)
            : Promise.resolve({ done: true as const, value: undefined });
        },
      };
    },
  };
}
