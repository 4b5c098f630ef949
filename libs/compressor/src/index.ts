export { ScratchpadCompressor } from './compressor/scratchpad-compressor';
export type {
  CompressScratchpadInput,
  CompressionResult,
  ScratchpadCompressorOptions,
} from './compressor/scratchpad-compressor';
export type {
  CompressionEvent,
  CompressionMethod,
  OlderEntriesOutcome,
  RemovedEntry,
  SummarizerReport,
  SummarizerStatus,
  TruncatedItem,
} from './compressor/compression-event';
export { ScratchpadBudgetError } from './compressor/scratchpad-budget-error';
export {
  groupScratchpad,
  splitScratchpad,
  ScratchpadInputError,
  type ScratchpadGroup,
} from './messages/scratchpad-groups';
export { flattenContent } from './messages/flatten-content';

export {
  createTokenCounter,
  MAX_CHARS_PER_TOKEN,
  MESSAGE_OVERHEAD_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
  type TokenCount,
  type TokenCounter,
  type TokenCounterOptions,
} from './tokens/count-tokens';
export {
  tokenizerForModel,
  ANTHROPIC_SAFETY_FACTOR,
  GEMINI_SAFETY_FACTOR,
  UNKNOWN_MODEL_SAFETY_FACTOR,
  type TokenEncodingName,
  type TokenizerChoice,
} from './tokens/encoding-for-model';

export {
  truncateText,
  DEFAULT_HEAD_SHARE,
  DEFAULT_MAX_MESSAGE_CHARACTERS,
  OPENAI_MESSAGE_CHARACTER_LIMIT,
  type TextTruncation,
  type TruncateTextOptions,
  type TruncationStrategy,
} from './truncation/truncate-text';
export {
  truncationNotice,
  compactTruncationNotice,
  hasTruncationNotice,
  omissionMarker,
  formatCount,
  TRUNCATION_NOTICE_HEADINGS,
  type NoticeLanguage,
  type OmissionStats,
} from './truncation/truncation-notice';

export {
  InMemoryToolResultStore,
  type InMemoryToolResultStoreOptions,
  type ToolResultPage,
  type ToolResultRecord,
  type ToolResultStore,
} from './store/tool-result-store';
export {
  readToolResultTool,
  createReadToolResultTool,
  createReadToolResultExecutor,
  READ_TOOL_RESULT_TOOL_NAME,
  DEFAULT_READ_TOOL_RESULT_MAX_LIMIT,
  type ReadToolResultExecutorOptions,
  type ReadToolResultOutput,
} from './store/read-tool-result-tool';

export type { Summarizer, SummarizeOptions } from './summarizer/summarizer';
export { createModelSummarizer, type ModelSummarizerOptions } from './summarizer/model-summarizer';
export { renderEntriesForSummary } from './summarizer/render-entries';
