import type { MessageJson, SessionJson } from '@agentdesk/api-contract';
import { checkMessage } from '../server/check-message';
import { buildTurns, transcriptTotals, type TranscriptTotals } from '../transcript-model';

/** The JSON download: the session and every message exactly as the API returned them, with the totals. */
export interface TranscriptJsonExport {
  format: 'agentdesk-transcript';
  version: 1;
  session: SessionJson;
  totals: TranscriptTotals;
  /** True when the transcript had more messages than the export reads. */
  incomplete: boolean;
  messages: MessageJson[];
}

export function transcriptJsonExport(transcript: {
  session: SessionJson;
  messages: MessageJson[];
  incomplete: boolean;
}): TranscriptJsonExport {
  return {
    format: 'agentdesk-transcript',
    version: 1,
    session: transcript.session,
    totals: transcriptTotals(buildTurns(transcript.messages.map(checkMessage))),
    incomplete: transcript.incomplete,
    messages: transcript.messages,
  };
}
