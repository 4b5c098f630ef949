import { z } from 'zod';

// Model prices (`/v1/admin/model-prices`): price versions of one model, never changed once added.
// Prices are US dollars per million tokens as decimal strings with at most 6 decimals ("2.50"),
// stored exactly as integer micro-dollars.

/** The providers a price can be for. */
export const priceProviders = ['openai', 'anthropic', 'gemini'] as const;

/** Dollars per million tokens: a decimal string, at most 6 decimals, at most $1,000,000. */
export const usdPerMillionSchema = z
  .string()
  .regex(
    /^\d{1,7}(\.\d{1,6})?$/,
    'a decimal number of US dollars per million tokens, e.g. "2.50" (at most 6 decimals)',
  )
  .refine((value) => Number(value) <= 1_000_000, 'at most 1000000 dollars per million tokens');

/** One price version as the API returns it. */
export const modelPriceJsonSchema = z.object({
  id: z.string(),
  model: z.string(),
  provider: z.string(),
  inputUsdPerMillion: z.string(),
  cachedInputUsdPerMillion: z.string(),
  outputUsdPerMillion: z.string(),
  thinkingUsdPerMillion: z.string(),
  /** From when this version is the model's price (until a later version's). */
  effectiveFrom: z.string(),
  createdAt: z.string(),
  /** Who added it (`seed`: the defaults shipped with AgentDesk). */
  createdBy: z.string(),
  /** True for the version in effect now. */
  current: z.boolean(),
});
export type ModelPriceJson = z.infer<typeof modelPriceJsonSchema>;

/** `GET /v1/admin/model-prices`: every version, by model, newest first within a model. */
export const modelPriceListJsonSchema = z.object({ items: z.array(modelPriceJsonSchema) });
export type ModelPriceListJson = z.infer<typeof modelPriceListJsonSchema>;

/** `POST /v1/admin/model-prices`: a new version of one model's price. */
export const newModelPriceBodySchema = z.strictObject({
  /** The exact model name calls are made with (no patterns). */
  model: z
    .string()
    .trim()
    .min(1, 'a model name')
    .max(200, 'at most 200 characters')
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/,
      'letters, digits and . _ : / @ - only, as the model is named in calls',
    ),
  provider: z.enum(priceProviders),
  inputUsdPerMillion: usdPerMillionSchema,
  /** Cache reads; the input price when omitted. */
  cachedInputUsdPerMillion: usdPerMillionSchema.optional(),
  outputUsdPerMillion: usdPerMillionSchema,
  /** Reasoning / thinking tokens; the output price when omitted. */
  thinkingUsdPerMillion: usdPerMillionSchema.optional(),
  /** ISO date-time from which it applies; now when omitted. Never in the past: costs already computed stay. */
  effectiveFrom: z.iso.datetime({ offset: true }).optional(),
});
export type NewModelPriceBody = z.infer<typeof newModelPriceBodySchema>;

/** Exact micro-dollars of a validated dollars-per-million string ("2.5" → 2 500 000). */
export function usdToMicros(value: string): number {
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
}

/** Dollars-per-million text of micro-dollars, exact (2 500 000 → "2.50"). */
export function microsToUsd(micros: number): string {
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${whole}.${fraction}`;
}
