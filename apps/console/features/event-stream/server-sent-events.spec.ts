import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventStreamParser, type ServerSentEvent } from './server-sent-events';

function parseAll(chunks: readonly string[]): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const feed = createEventStreamParser((event) => events.push(event));
  for (const chunk of chunks) feed(chunk);
  return events;
}

/** Splits a text at the given cut points (any, even inside a line or a CRLF). */
function cut(text: string, points: readonly number[]): string[] {
  const sorted = [...new Set(points.map((point) => point % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of sorted) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

describe('the build log’s event-stream parser', () => {
  it('reads named events with JSON data, as the API writes them', () => {
    const text =
      'event: build-start\ndata: {"type":"build-start","at":1}\n\n' +
      'event: line\ndata: {"type":"line","at":2,"text":"ok"}\n\n';
    expect(parseAll([text])).toEqual([
      { event: 'build-start', data: '{"type":"build-start","at":1}' },
      { event: 'line', data: '{"type":"line","at":2,"text":"ok"}' },
    ]);
  });

  it('joins data lines, ignores comments and other fields, defaults the name, accepts CRLF', () => {
    expect(parseAll([': keep-alive\r\n\r\nid: 7\r\ndata: a\r\ndata:b\r\n\r\ndata\n\n'])).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: '' },
    ]);
  });

  it('keeps an unfinished event until its blank line arrives', () => {
    const events: ServerSentEvent[] = [];
    const feed = createEventStreamParser((event) => events.push(event));
    feed('event: step\ndata: {"a":1}\n');
    expect(events).toEqual([]);
    feed('\n');
    expect(events).toEqual([{ event: 'step', data: '{"a":1}' }]);
  });

  it('gives the same events however the stream is cut into chunks', () => {
    const eventArbitrary = fc.record({
      event: fc.constantFrom('build-start', 'step', 'progress', 'line', 'error', 'build-end'),
      data: fc.json().map((json) => json.replace(/[\r\n]/g, ' ')),
    });
    fc.assert(
      fc.property(
        fc.array(eventArbitrary, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        (events, points, crlf) => {
          const newline = crlf ? '\r\n' : '\n';
          const text = events
            .map((event) => `event: ${event.event}${newline}data: ${event.data}${newline}${newline}`)
            .join('');
          expect(parseAll(cut(text, points))).toEqual(events);
        },
      ),
    );
  });
});
