import { createHash } from 'node:crypto';
import { rateFor, type VariationSettings } from './variation-settings';

/** The dice of one request: fixed by seed, model and body, independent of anything else. */
export interface VariationRoll {
  /** Which applicable kind goes wrong (taken modulo their count). */
  readonly kindPick: number;
  /** Which place in the answer goes wrong (taken modulo the places the kind can use). */
  readonly spotPick: number;
}

const TWO_TO_THE_48 = 2 ** 48;

/**
 * Whether this request's answer goes wrong, and the dice for how; undefined when it stays valid.
 * A SHA-256 of (seed, model, body) gives a uniform number in [0, 1) compared with the model's rate.
 */
export function rollVariation(
  settings: VariationSettings,
  model: string,
  requestText: string,
): VariationRoll | undefined {
  const rate = rateFor(settings, model);
  if (rate <= 0) return undefined;
  const digest = createHash('sha256')
    .update(JSON.stringify([String(settings.seed), model, requestText]))
    .digest();
  if (digest.readUIntBE(0, 6) / TWO_TO_THE_48 >= rate) return undefined;
  return { kindPick: digest.readUInt32BE(6), spotPick: digest.readUInt32BE(10) };
}
