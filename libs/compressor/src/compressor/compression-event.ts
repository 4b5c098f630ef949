import type { NoticeLanguage } from '../truncation/truncation-notice';
import type { TruncationStrategy } from '../truncation/truncate-text';

/** What the compressor did: nothing, only deterministic truncation, or an LLM summary of older entries (maybe with truncation). */
export type CompressionMethod = 'none' | 'truncation' | 'summary';

/** What happened to the entries older than the newest call/result group. */
export type OlderEntriesOutcome = 'none' | 'kept' | 'summarized' | 'truncated';

/** Why the summarizer was or was not used, and how it went. */
export type SummarizerStatus =
  | 'not-needed'
  | 'not-configured'
  | 'budget-too-small'
  | 'succeeded'
  | 'failed'
  | 'timed-out'
  | 'aborted'
  | 'empty'
  | 'overshot';

/** The summarizer's part of a {@link CompressionEvent}. */
export interface SummarizerReport {
  status: SummarizerStatus;
  /** The error message, for `failed`. */
  error?: string;
  /** Token budget given to the summary. */
  maxTokens?: number;
  /** Tokens of the summary message, when one came back. */
  summaryTokens?: number;
  durationMs?: number;
}

/** One tool result that was cut. */
export interface TruncatedItem {
  toolCallId: string;
  toolName: string;
  /** Id of the stored original (readable with `read_tool_result`), when a store is configured. */
  storedResultId?: string;
  /** True for a result of the newest call group. */
  newest: boolean;
  strategy: TruncationStrategy;
  originalCharacters: number;
  keptCharacters: number;
  omittedCharacters: number;
  omittedLines?: number;
  omittedItems?: number;
  totalItems?: number;
  /** Tokens of the result message before; an estimate when `tokensBeforeExact` is false (huge results are never fully tokenized). */
  tokensBefore: number;
  tokensBeforeExact: boolean;
  tokensAfter: number;
}

/** One message that left the context, summarized or dropped; its tool result (if any) is stored. */
export interface RemovedEntry {
  role: 'assistant' | 'tool';
  how: 'summarized' | 'dropped';
  toolCallId?: string;
  toolName?: string;
  storedResultId?: string;
}

/**
 * The record of one compression, for the console and the API to show and persist. Plain JSON:
 * strings, numbers, booleans, arrays and objects only.
 */
export interface CompressionEvent {
  type: 'scratchpad-compression';
  /** ISO 8601 time of the compression. */
  at: string;
  method: CompressionMethod;
  language: NoticeLanguage;
  budgetTokens: number;
  entriesBefore: number;
  entriesAfter: number;
  /** Tokens before; an estimate when `tokensBeforeExact` is false. */
  tokensBefore: number;
  tokensBeforeExact: boolean;
  tokensAfter: number;
  newestTruncated: boolean;
  olderEntries: OlderEntriesOutcome;
  summarizer: SummarizerReport;
  truncatedItems: TruncatedItem[];
  removedEntries: RemovedEntry[];
  durationMs: number;
}
