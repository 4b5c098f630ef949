import type { TokenCounter } from '../tokens/count-tokens';
import {
  findCutPoints,
  planTextCut,
  type CutPlan,
  type CutPoints,
  type CutRequest,
  type CutStrategy,
} from './cut-plan';
import { planJsonArrayCut } from './truncate-json';
import { planJsonObjectCut } from './truncate-json-object';
import { planCsvCut, planNdjsonCut } from './truncate-records';
import {
  compactTruncationNotice,
  omissionMarker,
  truncationNotice,
  type NoticeLanguage,
  type OmissionStats,
} from './truncation-notice';

/**
 * OpenAI rejects message content over 10,485,760 characters. The default cap leaves ~20% of
 * headroom for JSON escaping and the wrapper text SDKs add.
 */
export const OPENAI_MESSAGE_CHARACTER_LIMIT = 10_485_760;
/** Default per-message character cap. */
export const DEFAULT_MAX_MESSAGE_CHARACTERS = 8_000_000;
/** Default share of the kept tokens given to the start of the text (the rest goes to its end). */
export const DEFAULT_HEAD_SHARE = 0.6;

/** Options of {@link truncateText}. */
export interface TruncateTextOptions {
  /** The whole output (notice + head + marker + tail) stays at or under this many tokens. */
  targetTokens: number;
  counter: TokenCounter;
  /** Language of the notice and marker. Default `en`. */
  language?: NoticeLanguage;
  /** Id of the stored original, named in the notice so the model can page through it. */
  storedResultId?: string;
  /** Share of the kept tokens for the head. Default 0.6. */
  headShare?: number;
  /** Character cap of the output. Default {@link DEFAULT_MAX_MESSAGE_CHARACTERS}. */
  maxCharacters?: number;
  /** Put the notice in front of a truncated text. Default true; the summarizer's input rendering turns it off. */
  notice?: boolean;
}

/** How a text was cut; `notice-only` when no data fitted next to the notice. */
export type TruncationStrategy = CutStrategy | 'notice-only';

/** The outcome of {@link truncateText}. */
export type TextTruncation =
  | { truncated: false; text: string; tokens: number }
  | {
      truncated: true;
      text: string;
      tokens: number;
      strategy: TruncationStrategy;
      originalCharacters: number;
      keptCharacters: number;
      stats: OmissionStats;
    };

/**
 * The first structure-aware cut that fits the text's format, else plain text or lines. Each
 * detector rejects other formats at its first look (first character, first and last lines).
 */
function planCut(request: CutRequest, cut: CutPoints): CutPlan {
  return (
    planJsonArrayCut(request, cut) ??
    planNdjsonCut(request, cut) ??
    planJsonObjectCut(request, cut) ??
    planCsvCut(request, cut) ??
    planTextCut(request, cut)
  );
}

/** Tokens kept free for the seams where notice, head, marker and tail meet (the tokenizer may merge across them). */
const SEAM_SLACK_TOKENS = 3;
const MAX_ATTEMPTS = 6;

/**
 * Fits a text into a token budget, keeping its start and end around a marker that says exactly
 * what was left out, behind a notice that the data is incomplete.
 *
 * Cost: one scan of the text at most (line counting or JSON item counting) plus tokenizing about
 * the budget's worth of text; the whole text is never tokenized. The notice's and marker's tokens
 * are reserved inside the target, and the output is checked with the same counter, so it never
 * exceeds `targetTokens`. No truncation means no notice. Returns `undefined` when even the
 * shortest notice does not fit.
 */
export function truncateText(text: string, options: TruncateTextOptions): TextTruncation | undefined {
  const { counter, targetTokens } = options;
  const language = options.language ?? 'en';
  const maxCharacters = options.maxCharacters ?? DEFAULT_MAX_MESSAGE_CHARACTERS;
  const headShare = options.headShare ?? DEFAULT_HEAD_SHARE;
  const whole = counter.countTextUpTo(text, targetTokens);
  if (whole.exact && whole.tokens <= targetTokens && text.length <= maxCharacters) {
    return { truncated: false, text, tokens: whole.tokens };
  }

  const notice = options.notice === false ? '' : truncationNotice(language, options.storedResultId);
  // The marker's numbers are not known before the cut: reserve the longest marker this text can get.
  const widestMarker = `\n\n${JSON.stringify(
    omissionMarker(
      {
        characters: text.length,
        items: { omitted: text.length, total: text.length, unit: language === 'fr' ? 'rows' : 'records' },
      },
      language,
    ),
  )}\n\n`;
  const reserved = counter.countText(notice) + counter.countText(widestMarker) + SEAM_SLACK_TOKENS;
  const characterRoom = maxCharacters - notice.length - widestMarker.length;
  let available = targetTokens - reserved;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && available > 0 && characterRoom > 0; attempt++) {
    const headTokens = Math.floor(available * headShare);
    const request: CutRequest = {
      text,
      counter,
      headTokens,
      tailTokens: available - headTokens,
      maxHeadCharacters: Math.floor(characterRoom * headShare),
      maxTailCharacters: characterRoom - Math.floor(characterRoom * headShare),
      language,
    };
    const cut = findCutPoints(request);
    const plan = planCut(request, cut);
    const output = notice + plan.text;
    const count = counter.countTextUpTo(output, targetTokens);
    if (count.exact && count.tokens <= targetTokens && output.length <= maxCharacters) {
      return {
        truncated: true,
        text: output,
        tokens: count.tokens,
        strategy: plan.strategy,
        originalCharacters: text.length,
        keptCharacters: plan.keptCharacters,
        stats: plan.stats,
      };
    }
    // Over by a few tokens where pieces met: shrink by the overshoot (and a bit more each time).
    available -= Math.max(1, count.tokens - targetTokens) + attempt * SEAM_SLACK_TOKENS;
  }

  const compact =
    options.notice === false
      ? omissionMarker({ characters: text.length }, language)
      : compactTruncationNotice(language, text.length, options.storedResultId);
  const compactTokens = counter.countTextUpTo(compact, targetTokens);
  if (!compactTokens.exact || compactTokens.tokens > targetTokens) return undefined;
  return {
    truncated: true,
    text: compact,
    tokens: compactTokens.tokens,
    strategy: 'notice-only',
    originalCharacters: text.length,
    keptCharacters: 0,
    stats: { characters: text.length },
  };
}
