/** The gpt-tokenizer encodings this library counts with. */
export type TokenEncodingName = 'o200k_base' | 'cl100k_base';

/** How tokens are counted for one model: which encoding, and by how much the raw count is scaled. */
export interface TokenizerChoice {
  encoding: TokenEncodingName;
  /**
   * Multiplier applied to the raw gpt-tokenizer count. 1 for OpenAI models (exact encodings);
   * above 1 where o200k is only an approximation of the provider's own tokenizer.
   */
  safetyFactor: number;
  /** True when the count is an approximation of another provider's tokenizer. */
  approximate: boolean;
}

/**
 * Anthropic's tokenizers are not public. Measured against o200k, Claude models spend roughly
 * 10–35% more tokens on the same text (more on code and non-Latin scripts), so o200k is scaled up.
 */
export const ANTHROPIC_SAFETY_FACTOR = 1.35;
/** Gemini's SentencePiece vocabulary usually needs no more tokens than o200k; the margin covers code and rare scripts. */
export const GEMINI_SAFETY_FACTOR = 1.2;
/** A model we do not recognise gets the most conservative approximation. */
export const UNKNOWN_MODEL_SAFETY_FACTOR = 1.35;

// Checked after O200K_MODEL, so `gpt-4o`/`gpt-4.1` never reach it.
const CL100K_MODEL = /^(gpt-4(?:-|$)|gpt-3\.5|text-embedding-)/;
const O200K_MODEL = /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|chatgpt-|o\d|codex-)/;

/**
 * Picks the encoding for a model name.
 *
 * - OpenAI `gpt-4o`, `gpt-4.1`, `gpt-4.5`, `gpt-5*`, `o1`/`o3`/`o4*`: `o200k_base`, exact.
 * - OpenAI `gpt-4`, `gpt-4-turbo`, `gpt-3.5*`: `cl100k_base`, exact.
 * - Anthropic (`claude*`) and Gemini (`gemini*`): `o200k_base` as a documented approximation,
 *   scaled by {@link ANTHROPIC_SAFETY_FACTOR} / {@link GEMINI_SAFETY_FACTOR} so budgets err on the safe side.
 * - Anything else: `o200k_base` scaled by {@link UNKNOWN_MODEL_SAFETY_FACTOR}.
 */
export function tokenizerForModel(model: string): TokenizerChoice {
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^(?:openai|models)\//, '');
  if (O200K_MODEL.test(name)) return { encoding: 'o200k_base', safetyFactor: 1, approximate: false };
  if (CL100K_MODEL.test(name)) return { encoding: 'cl100k_base', safetyFactor: 1, approximate: false };
  if (name.startsWith('claude')) {
    return { encoding: 'o200k_base', safetyFactor: ANTHROPIC_SAFETY_FACTOR, approximate: true };
  }
  if (name.startsWith('gemini') || name.startsWith('gemma')) {
    return { encoding: 'o200k_base', safetyFactor: GEMINI_SAFETY_FACTOR, approximate: true };
  }
  return { encoding: 'o200k_base', safetyFactor: UNKNOWN_MODEL_SAFETY_FACTOR, approximate: true };
}
