import type { ServerResponse } from 'node:http';
import type { StreamFault } from '../script/scripted-reply';
import { waitUnlessClosed } from './respond';

/** How to play a list of SSE frames onto an already started event-stream response. */
export interface EventStreamPlayback {
  frames: readonly string[];
  chunkDelayMs: number;
  fault: StreamFault | undefined;
  /** Renders the provider's in-stream error event for an `error-event` fault. */
  errorFrame: (fault: Extract<StreamFault, { kind: 'error-event' }>) => string;
  /** Renders a frame whose data is not JSON, for a `malformed` fault. */
  malformedFrame: (data: string) => string;
}

const defaultMalformedData = '{"truncated": ';

/** Writes the frames, applying delays and the scripted fault; ends (or destroys) the response. */
export async function writeEventStream(
  response: ServerResponse,
  playback: EventStreamPlayback,
): Promise<void> {
  const { frames, chunkDelayMs, fault } = playback;
  if (fault === undefined && chunkDelayMs <= 0) {
    // The fast path used by load benchmarks: one write, one syscall.
    response.end(frames.join(''));
    return;
  }
  const faultAt = fault === undefined ? Number.POSITIVE_INFINITY : Math.min(fault.afterChunks, frames.length);
  for (let index = 0; index <= frames.length; index++) {
    if (index === faultAt && fault !== undefined) {
      switch (fault.kind) {
        case 'cut':
          await flushThenDestroy(response);
          return;
        case 'stall':
          // Leave the response open: the client's idle timeout or abort (or emulator close) ends it.
          return;
        case 'error-event':
          response.end(playback.errorFrame(fault));
          return;
        case 'malformed':
          response.write(playback.malformedFrame(fault.data ?? defaultMalformedData));
          break;
      }
    }
    const frame = frames[index];
    if (frame === undefined) break;
    if (index > 0 && chunkDelayMs > 0 && !(await waitUnlessClosed(response, chunkDelayMs))) return;
    if (response.destroyed) return;
    response.write(frame);
  }
  response.end();
}

/** Lets written frames reach the client, then closes the socket without the final empty chunk. */
function flushThenDestroy(response: ServerResponse): Promise<void> {
  const socket = response.socket;
  if (socket === null) {
    response.destroy();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    // destroySoon ends the socket once its write queue is drained: the body stops mid-stream.
    socket.destroySoon();
  });
}
