import type { ChatMessage } from '@agentdesk/providers';
import type { NoticeLanguage } from '../truncation/truncation-notice';

/** Options the compressor passes to a {@link Summarizer}. */
export interface SummarizeOptions {
  /** The summary must fit in this many tokens (the compressor checks, and falls back to truncation if not). */
  maxTokens: number;
  /** Aborted on timeout or when the caller gives up. */
  signal: AbortSignal;
  /** Language the summary should be written in. */
  language?: NoticeLanguage;
}

/**
 * Condenses older scratchpad entries (tool calls and their results) into a short text. The
 * compressor treats any rejection, a timeout, an empty text or a text over `maxTokens` as a failure
 * and truncates deterministically instead, so an implementation never has to be perfect.
 */
export interface Summarizer {
  summarize(entries: readonly ChatMessage[], options: SummarizeOptions): Promise<string>;
}
