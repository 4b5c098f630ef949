import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeFrame } from './runner-frames';

describe('runner frames', () => {
  it('decode what was encoded, whatever the chunking', () => {
    const frame = fc.record({
      kind: fc.integer({ min: 0, max: 255 }),
      id: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      payload: fc.uint8Array({ maxLength: 300 }),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 64 })),
        (frames, cuts) => {
          const wire = Buffer.concat(frames.map((f) => encodeFrame(f.kind, f.id, Buffer.from(f.payload))));
          const decoder = new FrameDecoder();
          const decoded = [];
          let offset = 0;
          for (const cut of [...cuts, wire.length]) {
            decoded.push(...decoder.push(wire.subarray(offset, offset + cut)));
            offset += cut;
            if (offset >= wire.length) break;
          }
          expect(
            decoded.map((f) => ({ kind: f.kind, id: f.id, payload: new Uint8Array(f.payload) })),
          ).toEqual(frames.map((f) => ({ kind: f.kind, id: f.id, payload: new Uint8Array(f.payload) })));
        },
      ),
    );
  });
});
