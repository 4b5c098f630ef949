import { jsonFromSchema } from '../json-from-schema';
import { rollVariation } from './variation-roll';
import type { VariationSettings } from './variation-settings';
import { varyStructuredAnswer, type VariedAnswer } from './vary-structured-answer';

/** What variation needs to know about one provider request (absent when variation is off). */
export interface VariationRequest {
  readonly settings: VariationSettings;
  /** The model the request named (the body for OpenAI and Anthropic, the path for Gemini). */
  readonly model: string;
  /** The raw request body: the same body always gets the same answer. */
  readonly requestText: string;
}

/** The request's variation input, or undefined when variation is off. */
export function variationRequest(
  settings: VariationSettings | undefined,
  model: string | undefined,
  requestText: string,
): VariationRequest | undefined {
  return settings === undefined ? undefined : { settings, model: model ?? '', requestText };
}

/**
 * The answer text for a default (unscripted) structured-output answer: an instance of the schema,
 * or — when the roll for this request says so — an invalid one (see `vary-structured-answer.ts`).
 */
export function structuredAnswer(
  schema: unknown,
  variation: VariationRequest | undefined,
): { text: string; varied: VariedAnswer | undefined } {
  const valid = jsonFromSchema(schema);
  if (variation === undefined) return { text: JSON.stringify(valid), varied: undefined };
  const roll = rollVariation(variation.settings, variation.model, variation.requestText);
  const varied =
    roll === undefined ? undefined : varyStructuredAnswer(schema, valid, variation.settings, roll);
  return { text: varied?.text ?? JSON.stringify(valid), varied };
}
