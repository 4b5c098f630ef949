/**
 * Time-ordered ids in UUIDv7 layout (RFC 9562): 48 bits of milliseconds, then a 12-bit counter
 * (method 1, so ids made in the same millisecond by this process still sort in creation order),
 * then 62 random bits. Lowercase hex sorts byte-wise in time order on both engines, which lets
 * keyset pagination order by `(created_at, id)` with `id` as a meaningful tie-breaker.
 */
let lastMilliseconds = -1;
let counter = 0;

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

  const random = new Uint8Array(8);
  globalThis.crypto.getRandomValues(random);
  random[0] = (random[0]! & 0x3f) | 0x80; // variant 10xx

  const timeHex = timestamp.toString(16).padStart(12, '0').slice(-12);
  const counterHex = (0x7000 | counter).toString(16);
  const randomHex = Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${timeHex.slice(0, 8)}-${timeHex.slice(8, 12)}-${counterHex}-${randomHex.slice(0, 4)}-${randomHex.slice(4, 16)}`;
}

// Start each millisecond's counter in the lower half so thousands of ids still fit in it.
function randomCounterStart(): number {
  const value = new Uint16Array(1);
  globalThis.crypto.getRandomValues(value);
  return value[0]! & 0x7ff;
}

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** True for a string in the layout `newId` produces. */
export function isId(value: string): boolean {
  return idPattern.test(value);
}
