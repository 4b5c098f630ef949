import { describe, expect, it } from 'vitest';
import { acceptsEventStream } from './accept-header';

describe('acceptsEventStream', () => {
  it.each([
    'text/event-stream',
    'TEXT/Event-Stream',
    'application/json, text/event-stream',
    ' text/event-stream ; q=0.5',
    'text/event-stream;q=1',
    'text/event-stream; charset=utf-8',
    'text/event-stream;q = 0.1',
  ])('streams for %j', (accept) => {
    expect(acceptsEventStream(accept)).toBe(true);
  });

  it.each([
    undefined,
    '',
    '*/*',
    'text/*',
    'application/json',
    'text/event-stream;q=0',
    'text/event-stream; q=0.000',
    'application/json, text/event-stream;q=0',
    'text/event-streams',
    'text/event-stream;q=nonsense',
  ])('answers JSON for %j', (accept) => {
    expect(acceptsEventStream(accept)).toBe(false);
  });
});
