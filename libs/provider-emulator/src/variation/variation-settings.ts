import { z } from 'zod';

/**
 * How a varied structured-output answer goes wrong — the mistakes real models make:
 * - `invalid-enum`: a value outside an `enum` (or `const`), e.g. `"HIGH"` for `"high"`;
 * - `missing-required`: a required, non-nullable property left out;
 * - `wrong-type`: a value of a type the schema does not allow (`"42"` for an integer);
 * - `prose-around-json`: the right JSON, but in a fenced block between sentences (not parseable).
 */
export const variationKinds = [
  'invalid-enum',
  'missing-required',
  'wrong-type',
  'prose-around-json',
] as const;
export type VariationKind = (typeof variationKinds)[number];

/** The key of `rates` that applies to every model without a rate of its own. */
export const DEFAULT_RATE_KEY = 'default';

/**
 * Seeded, per-model variation of structured-output answers (off unless set). The decision for a
 * request is a pure function of `seed`, the model and the request body: the same request always
 * gets the same answer, so suite runs are reproducible, and different models fail differently.
 */
export interface VariationSettings {
  /** Any string or integer; a different seed gives a different (but again fixed) set of failures. */
  readonly seed: string | number;
  /** Share of structured-output answers that go wrong, 0–1, by model id; `default` for the rest. */
  readonly rates: Readonly<Record<string, number>>;
  /** The kinds to choose from (default: all four); a kind the schema cannot express is skipped. */
  readonly kinds?: readonly VariationKind[];
}

/** The settings as JSON (`startProviderEmulator({ variation })`, `PUT /_emulator/variation`). */
export const variationSettingsSchema = z.strictObject({
  seed: z.union([z.string().max(200), z.int()]),
  rates: z.record(z.string().min(1).max(200), z.number().min(0).max(1)),
  kinds: z.array(z.enum(variationKinds)).min(1).optional(),
});

/** Validates settings; throws a TypeError naming the field, as `parseScriptedReplies` does. */
export function parseVariationSettings(value: unknown): VariationSettings {
  const parsed = variationSettingsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? 'variation' : issue.path.join('.');
  throw new TypeError(`invalid variation settings: ${path}: ${issue?.message ?? 'invalid'}`);
}

/** The model's own rate, else the `default` rate, else 0. */
export function rateFor(settings: VariationSettings, model: string): number {
  return Object.hasOwn(settings.rates, model)
    ? (settings.rates[model] ?? 0)
    : (settings.rates[DEFAULT_RATE_KEY] ?? 0);
}
