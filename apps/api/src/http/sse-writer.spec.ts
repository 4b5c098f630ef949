import { EventEmitter } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatSseFrame, jsonData, namedJsonEvent, OPENAI_DONE_FRAME } from './sse-frame';
import { SseWriter } from './sse-writer';
import { waitFor } from '../../test/support/wait-for';

/** Records what a writer does to its response, call by call. */
class RecordingResponse extends EventEmitter {
  readonly calls: unknown[] = [];
  writableEnded = false;
  writableFinished = false;
  writableNeedDrain = false;
  destroyed = false;
  /** What `write` answers: false is a full socket buffer. */
  accepts = true;

  writeHead(status: number, headers: Record<string, string>): this {
    this.calls.push(['head', status, Object.entries(headers)]);
    return this;
  }
  write(text: string): boolean {
    this.calls.push(['write', text]);
    return this.accepts;
  }
  end(text?: string): this {
    this.calls.push(text === undefined ? ['end'] : ['end', text]);
    this.writableEnded = true;
    return this;
  }
  asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}

const streamHead = [
  'head',
  200,
  [
    ['x-request-id', 'req-1'],
    ['content-type', 'text/event-stream; charset=utf-8'],
    ['cache-control', 'no-cache, no-transform'],
    ['connection', 'keep-alive'],
    ['x-accel-buffering', 'no'],
  ],
];
const headers = { 'x-request-id': 'req-1' };
const namedEvents = (event: { type: string }) => namedJsonEvent(event.type, event);

describe('formatSseFrame', () => {
  it.each([
    [{ data: '{"a":1}' }, 'data: {"a":1}\n\n'],
    [{ event: 'turn-end', data: '{}' }, 'event: turn-end\ndata: {}\n\n'],
    [{ id: '7', event: 'line', data: '"x"' }, 'id: 7\nevent: line\ndata: "x"\n\n'],
    [OPENAI_DONE_FRAME, 'data: [DONE]\n\n'],
    // Text that is not JSON keeps its lines as separate data lines (clients join them with \n).
    [{ data: 'one\ntwo\r\nthree\rfour' }, 'data: one\ndata: two\ndata: three\ndata: four\n\n'],
  ])('frames %j', (frame, text) => {
    expect(formatSseFrame(frame)).toBe(text);
  });

  it('refuses an event name or id that would start a field of its own', () => {
    expect(() => formatSseFrame({ event: 'a\ndata: b', data: '' })).toThrow(/one line/);
    expect(() => formatSseFrame({ id: '1\r2', data: '' })).toThrow(/one line/);
  });

  it('frames JSON on one data line: JSON.stringify escapes line breaks', () => {
    expect(formatSseFrame(namedJsonEvent('text-delta', { text: 'a\nb\u2028' }))).toBe(
      'event: text-delta\ndata: {"text":"a\\nb\u2028"}\n\n',
    );
    expect(formatSseFrame(jsonData({ text: 'a\r\nb' }))).toBe('data: {"text":"a\\r\\nb"}\n\n');
  });
});

describe('SseWriter', () => {
  afterEach(() => vi.useRealTimers());

  it('sends the headers with the first event, then `event:` + `data:` frames (the agent turn, the build log)', () => {
    const response = new RecordingResponse();
    const writer = new SseWriter(response.asResponse(), { frame: namedEvents, headers });
    expect(writer.started).toBe(false);
    void writer.write({ type: 'turn-start' });
    void writer.write({ type: 'turn-end' });
    writer.end();
    expect(writer.started).toBe(true);
    expect(response.calls).toEqual([
      streamHead,
      ['write', 'event: turn-start\ndata: {"type":"turn-start"}\n\n'],
      ['write', 'event: turn-end\ndata: {"type":"turn-end"}\n\n'],
      ['end'],
    ]);
  });

  it('sends bare `data:` frames in one write and ends with `data: [DONE]` (OpenAI)', () => {
    const response = new RecordingResponse();
    const writer = new SseWriter<object>(response.asResponse(), { frame: jsonData, headers });
    void writer.writeAll([]);
    expect(response.calls).toEqual([]);
    void writer.writeAll([{ id: 1 }, { id: 2 }]);
    writer.end(OPENAI_DONE_FRAME);
    expect(response.calls).toEqual([
      streamHead,
      ['write', 'data: {"id":1}\n\ndata: {"id":2}\n\n'],
      ['end', 'data: [DONE]\n\n'],
    ]);
  });

  it('opens a stream that ends with its last frame before anything else (an in-stream error)', () => {
    const response = new RecordingResponse();
    new SseWriter<object>(response.asResponse(), { frame: jsonData, headers }).end(
      jsonData({ error: { message: 'm' } }),
    );
    expect(response.calls).toEqual([streamHead, ['end', 'data: {"error":{"message":"m"}}\n\n']]);
  });

  it('writes nothing once the client is gone', () => {
    const response = new RecordingResponse();
    const writer = new SseWriter(response.asResponse(), { frame: namedEvents, headers });
    response.destroyed = true;
    void writer.write({ type: 'turn-start' });
    writer.end(OPENAI_DONE_FRAME);
    expect(writer.started).toBe(false);
    expect(response.calls).toEqual([]);
  });

  it('aborts clientGone when the response closes unfinished, not after it finished', () => {
    const gone = new RecordingResponse();
    const goneWriter = new SseWriter(gone.asResponse(), { frame: namedEvents });
    gone.emit('close');
    expect(goneWriter.clientGone.aborted).toBe(true);

    const finished = new RecordingResponse();
    const finishedWriter = new SseWriter(finished.asResponse(), { frame: namedEvents });
    finished.writableFinished = true;
    finished.emit('close');
    expect(finishedWriter.clientGone.aborted).toBe(false);
  });

  it('resolves a write at once while the socket takes more, after drain (or close) when its buffer is full', async () => {
    const response = new RecordingResponse();
    const writer = new SseWriter(response.asResponse(), { frame: namedEvents });
    let settled = false;
    await writer.write({ type: 'a' });
    response.accepts = false;
    const waiting = writer.write({ type: 'b' }).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    response.emit('drain');
    await waiting;
    expect(settled).toBe(true);
    expect(response.listenerCount('drain')).toBe(0);

    const closing = writer.write({ type: 'c' });
    response.emit('close');
    await closing;
  });

  it('sends a heartbeat comment after the interval without a write, only when configured', () => {
    vi.useFakeTimers();
    const response = new RecordingResponse();
    const writer = new SseWriter(response.asResponse(), { frame: namedEvents, heartbeatIntervalMs: 1_000 });
    writer.open();
    vi.advanceTimersByTime(999);
    void writer.write({ type: 'a' });
    vi.advanceTimersByTime(999);
    expect(response.calls.filter((call) => (call as string[])[1] === ': keep-alive\n\n')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(1_000);
    expect(response.calls.slice(2)).toEqual([
      ['write', ': keep-alive\n\n'],
      ['write', ': keep-alive\n\n'],
    ]);
    response.writableNeedDrain = true;
    vi.advanceTimersByTime(1_000);
    expect(response.calls).toHaveLength(4);
    writer.end();
    response.writableNeedDrain = false;
    vi.advanceTimersByTime(5_000);
    expect(response.calls.at(-1)).toEqual(['end']);

    const silent = new RecordingResponse();
    new SseWriter(silent.asResponse(), { frame: namedEvents }).open();
    vi.advanceTimersByTime(60_000);
    expect(silent.calls).toHaveLength(1);
  });

  it('stops the heartbeat when the client goes away', () => {
    vi.useFakeTimers();
    const response = new RecordingResponse();
    new SseWriter(response.asResponse(), { frame: namedEvents, heartbeatIntervalMs: 1_000 }).open();
    response.emit('close');
    vi.advanceTimersByTime(5_000);
    expect(response.calls).toHaveLength(1);
  });
});

describe('SseWriter over a socket', () => {
  it('holds a producer back while a client does not read, and releases it when the client goes away', async () => {
    let writes = 0;
    /** True while the producer awaits a write (the socket did not take the last one yet). */
    let writing = false;
    let serverResponse: ServerResponse | undefined;
    let released!: () => void;
    const done = new Promise<void>((resolve) => (released = resolve));
    let clientGone: AbortSignal | undefined;
    const server = createServer((_request, response) => {
      serverResponse = response;
      const writer = new SseWriter<string>(response, { frame: (text) => ({ data: text }) });
      clientGone = writer.clientGone;
      const chunk = 'x'.repeat(64 * 1024);
      void (async () => {
        // Without waiting for drain this loop would buffer all 100 MiB in memory.
        for (let index = 0; index < 1_600 && !writer.clientGone.aborted; index += 1) {
          writing = true;
          await writer.write(chunk);
          writing = false;
          writes += 1;
        }
        released();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = httpRequest({ port, host: '127.0.0.1', path: '/' });
      client.on('error', () => undefined);
      const response = await new Promise<IncomingMessage>((resolve) => {
        client.once('response', resolve);
        client.end();
      });
      response.pause();
      // Held back: the producer waits on a write the full socket has not taken, and no write
      // completes over several probes (each probe lets the event loop flush whatever it can).
      let seen = -1;
      let unchangedProbes = 0;
      await waitFor(
        () => {
          const parked = writing && serverResponse?.writableNeedDrain === true && writes === seen;
          unchangedProbes = parked ? unchangedProbes + 1 : 0;
          seen = writes;
          return unchangedProbes >= 4 ? true : undefined;
        },
        'the producer to wait for the client to read',
        { state: () => ({ writes, writing, needDrain: serverResponse?.writableNeedDrain }) },
      );
      expect(writes).toBeGreaterThan(0);
      expect(writes).toBeLessThan(400);
      client.destroy();
      await done;
      expect(clientGone?.aborted).toBe(true);
      expect(writes).toBeLessThan(1_600);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
