import fc from 'fast-check';
import { expect, it } from 'vitest';
import { OutputDemultiplexer } from './demultiplex-output';

function frame(stream: 1 | 2, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

it('splits any framing, cut at any bytes, into stdout and stderr capped at maxBytes', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom<1 | 2>(1, 2), fc.uint8Array({ maxLength: 64 })), { maxLength: 20 }),
      fc.array(fc.nat({ max: 40 }), { maxLength: 30 }),
      fc.integer({ min: 1, max: 200 }),
      (frames, cuts, maxBytes) => {
        const wire = Buffer.concat(frames.map(([stream, payload]) => frame(stream, Buffer.from(payload))));
        const output = new OutputDemultiplexer(maxBytes);
        let offset = 0;
        for (const cut of cuts) {
          output.push(wire.subarray(offset, offset + cut));
          offset = Math.min(wire.length, offset + cut);
        }
        output.push(wire.subarray(offset));
        for (const stream of [1, 2] as const) {
          const all = Buffer.concat(
            frames.filter(([s]) => s === stream).map(([, payload]) => Buffer.from(payload)),
          );
          const captured = stream === 1 ? output.stdout() : output.stderr();
          expect(captured.totalBytes).toBe(all.length);
          expect(captured.truncated).toBe(all.length > maxBytes);
          expect(captured.text).toBe(all.subarray(0, maxBytes).toString('utf8'));
        }
      },
    ),
  );
});
