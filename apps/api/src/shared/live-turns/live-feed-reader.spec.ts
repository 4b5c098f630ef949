import type { LiveFeedEvent } from '@agentdesk/api-contract';
import { describe, expect, it } from 'vitest';
import type { SseFrame } from '../../http/sse-frame';
import { LiveFeedReader, type LiveFeedSink } from './live-feed-reader';

/** A reader's socket: takes writes at once, or holds them (a slow reader) until `release`. */
function fakeSink(slow: boolean) {
  const written: LiveFeedEvent[][] = [];
  let ended: SseFrame | undefined | 'no frame';
  let release: () => void = () => undefined;
  const sink: LiveFeedSink = {
    writeAll(events) {
      written.push([...events]);
      return slow ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
    end(last) {
      ended = last ?? 'no frame';
    },
  };
  return { sink, written, ended: () => ended, release: () => release() };
}

const delta = (text: string, messageId = 'm1'): LiveFeedEvent => ({ type: 'text-delta', messageId, text });

describe('LiveFeedReader', () => {
  it('writes events as they come to a reader that keeps up', async () => {
    const { sink, written } = fakeSink(false);
    const reader = new LiveFeedReader(sink, () => undefined);
    reader.push(delta('a'));
    await Promise.resolve();
    reader.push(delta('b'));
    expect(written).toEqual([[delta('a')], [delta('b')]]);
  });

  it('joins the deltas a slow reader has not taken yet, keeping other events in order', async () => {
    const { sink, written, release } = fakeSink(true);
    const reader = new LiveFeedReader(sink, () => undefined);
    reader.push(delta('first'));
    reader.push(delta('Hel'));
    reader.push(delta('lo'));
    reader.push({ type: 'message-complete', messageId: 'm1' });
    reader.push(delta('x', 'm2'));
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written[1]).toEqual([
      delta('Hello'),
      { type: 'message-complete', messageId: 'm1' },
      delta('x', 'm2'),
    ]);
  });

  it('drops a reader that falls behind past the limit, saying so in the last event, and writes nothing more', () => {
    const { sink, written, ended } = fakeSink(true);
    let dropped = 0;
    const reader = new LiveFeedReader(sink, () => (dropped += 1), { events: 3, characters: 1_000 });
    reader.push(delta('taken'));
    for (let index = 0; index < 4; index += 1)
      reader.push({
        type: 'tool-result',
        toolCallId: `c${index}`,
        toolName: 't',
        isError: false,
        characters: 1,
        preview: 'x',
      });
    expect(dropped).toBe(1);
    expect(reader.isEnded).toBe(true);
    const last = ended();
    expect(last).toMatchObject({ event: 'dropped' });
    expect(JSON.parse((last as SseFrame).data)).toMatchObject({
      type: 'dropped',
      reason: expect.stringContaining('fell behind'),
    });
    reader.push(delta('late'));
    expect(written).toEqual([[delta('taken')]]);
  });

  it('drops a reader whose unread text passes the character limit', () => {
    const { sink, ended } = fakeSink(true);
    const reader = new LiveFeedReader(sink, () => undefined, { events: 100, characters: 10 });
    reader.push(delta('start'));
    reader.push(delta('0123456789ab'));
    expect(ended()).toMatchObject({ event: 'dropped' });
  });
});
