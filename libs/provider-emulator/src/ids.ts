import { randomBytes } from 'node:crypto';

const base62 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

// One pool refilled rarely keeps id generation off the per-request profile.
let pool = randomBytes(4096);
let poolOffset = 0;

/** A random base62 token of `length` characters (bias from `% 62` is irrelevant for test ids). */
export function randomToken(length: number): string {
  if (poolOffset + length > pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  let token = '';
  for (let index = 0; index < length; index++) {
    token += base62[(pool[poolOffset + index] ?? 0) % 62];
  }
  poolOffset += length;
  return token;
}

/** Seconds since the epoch, as the `created` fields of OpenAI objects carry. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
