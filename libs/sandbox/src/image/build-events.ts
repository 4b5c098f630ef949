import { type EngineProgressMessage } from '../engine/engine-client';

/** One entry of a build log, as the console shows it. Noun-verb names like the other event types. */
export type BuildEvent =
  | { readonly type: 'build-start'; readonly at: number; readonly tag: string; readonly reason: string }
  | {
      readonly type: 'step';
      readonly at: number;
      readonly index: number;
      readonly total: number;
      readonly instruction: string;
    }
  | {
      readonly type: 'progress';
      readonly at: number;
      readonly id?: string;
      readonly status: string;
      readonly current?: number;
      readonly total?: number;
    }
  | { readonly type: 'line'; readonly at: number; readonly text: string }
  | { readonly type: 'error'; readonly at: number; readonly message: string }
  | {
      readonly type: 'build-end';
      readonly at: number;
      readonly status: 'current' | 'built' | 'failed';
      readonly imageId?: string;
    };

const stepPattern = /^Step (\d+)\/(\d+) : (.*)$/s;

/**
 * Maps one engine progress message to build events. `{error, errorDetail}` is how the engine
 * reports a failing step (the request itself succeeded), so it becomes an `error` event that the
 * builder must treat as the build's failure.
 */
export function toBuildEvents(message: EngineProgressMessage, at: number): BuildEvent[] {
  if (message.error || message.errorDetail?.message) {
    return [{ type: 'error', at, message: (message.errorDetail?.message ?? message.error ?? '').trim() }];
  }
  const events: BuildEvent[] = [];
  if (typeof message.stream === 'string') {
    for (const raw of message.stream.split('\n')) {
      const text = raw.trimEnd();
      if (!text) continue;
      const step = stepPattern.exec(text);
      events.push(
        step
          ? { type: 'step', at, index: Number(step[1]), total: Number(step[2]), instruction: step[3]!.trim() }
          : { type: 'line', at, text },
      );
    }
  }
  if (typeof message.status === 'string') {
    events.push({
      type: 'progress',
      at,
      status: message.status,
      ...(message.id ? { id: message.id } : {}),
      ...(message.progressDetail?.current !== undefined ? { current: message.progressDetail.current } : {}),
      ...(message.progressDetail?.total !== undefined ? { total: message.progressDetail.total } : {}),
    });
  }
  return events;
}
