export { SessionPage } from './components/session-page';
export { formatDateTime, formatDuration, formatTokens, prettyArguments } from './format';
export {
  buildTurns,
  transcriptTotals,
  type ToolExchange,
  type TranscriptMessage,
  type TranscriptTotals,
  type Turn,
} from './transcript-model';
