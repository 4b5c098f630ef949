import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventStreamParser } from '../../event-stream';
import { checkedBuildEventStream } from './checked-build-events';

async function throughChecker(chunks: readonly string[]): Promise<string> {
  const encoder = new TextEncoder();
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(checkedBuildEventStream(source)).text();
}

function eventsOf(text: string): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [];
  createEventStreamParser(({ event, data }) => events.push({ event, data: JSON.parse(data) }))(text);
  return events;
}

const buildEvent = fc.record({
  type: fc.constantFrom('build-start', 'step', 'line', 'build-end'),
  at: fc.integer({ min: 0 }),
  text: fc.string(),
});
const notABuildEvent = fc.constantFrom('not json', '{"type":"line"}', '{"at":1}', '[]');

describe('the build log stream the console relays to the browser', () => {
  it('passes every build event, in order, and drops what is not one, however the stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(buildEvent, notABuildEvent), { maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
        async (entries, cuts) => {
          const text = entries
            .map((entry) =>
              typeof entry === 'string'
                ? `data: ${entry}\n\n`
                : `event: ${entry.type}\ndata: ${JSON.stringify(entry)}\n\n`,
            )
            .join('');
          const chunks: string[] = [];
          let rest = text;
          for (let index = 0; rest !== ''; index += 1) {
            const size = cuts[index % cuts.length] ?? 1;
            chunks.push(rest.slice(0, size));
            rest = rest.slice(size);
          }
          const expected = entries
            .filter((entry) => typeof entry !== 'string')
            .map((entry) => ({ event: entry.type, data: entry }));
          expect(eventsOf(await throughChecker(chunks))).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
