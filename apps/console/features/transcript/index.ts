export { SessionPage } from './components/session-page';
export { formatDateTime, formatDuration, formatTokens, prettyArguments } from './format';
export {
  handleLiveFeed,
  handleMessagesPage,
  handleToolResultPage,
  handleTranscriptExport,
} from './server/transcript-handlers';
export {
  buildTurns,
  transcriptTotals,
  type CheckedMessage,
  type ToolExchange,
  type TranscriptMessage,
  type TranscriptTotals,
  type Turn,
} from './transcript-model';
