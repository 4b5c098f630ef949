import { randomFillSync } from 'node:crypto';

/**
 * Time-ordered ids in UUIDv7 layout (RFC 9562): 48 bits of milliseconds, then a 12-bit counter
 * (method 1, so ids made in the same millisecond by this process still sort in creation order),
 * then 62 random bits. Lowercase hex sorts byte-wise in time order on both engines, which lets
 * keyset pagination order by `(created_at, id)` with `id` as a meaningful tie-breaker.
 */
let lastMilliseconds = -1;
let counter = 0;

// Random bytes drawn from the OS a few KB at a time: one system call per 512 ids instead of one
// (WebCrypto, with its argument checks) per id — ids are made on every metered call and message.
const RANDOM_POOL_BYTES = 4096;
const randomPool = Buffer.alloc(RANDOM_POOL_BYTES);
let randomOffset = RANDOM_POOL_BYTES;

function takeRandomBytes(count: number): number {
  if (randomOffset + count > RANDOM_POOL_BYTES) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const start = randomOffset;
  randomOffset += count;
  return start;
}

const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Creates a new id for the given time (defaults to now). */
export function newId(milliseconds: number = Date.now()): string {
  let timestamp = Math.max(0, Math.floor(milliseconds));
  if (timestamp <= lastMilliseconds) {
    // Same (or an earlier, e.g. injected) millisecond: keep ids strictly increasing.
    timestamp = lastMilliseconds;
    counter += 1;
    if (counter > 0xfff) {
      timestamp += 1;
      counter = randomCounterStart();
    }
  } else {
    counter = randomCounterStart();
  }
  lastMilliseconds = timestamp;

  const at = takeRandomBytes(8);
  let randomHex = hexOfByte[(randomPool[at]! & 0x3f) | 0x80]!; // variant 10xx
  for (let index = at + 1; index < at + 8; index++) randomHex += hexOfByte[randomPool[index]!]!;

  const timeHex = timestamp.toString(16).padStart(12, '0').slice(-12);
  const counterHex = (0x7000 | counter).toString(16);
  return `${timeHex.slice(0, 8)}-${timeHex.slice(8, 12)}-${counterHex}-${randomHex.slice(0, 4)}-${randomHex.slice(4, 16)}`;
}

// Start each millisecond's counter in the lower half so thousands of ids still fit in it.
function randomCounterStart(): number {
  const at = takeRandomBytes(2);
  return randomPool.readUInt16LE(at) & 0x7ff;
}

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** True for a string in the layout `newId` produces. */
export function isId(value: string): boolean {
  return idPattern.test(value);
}
