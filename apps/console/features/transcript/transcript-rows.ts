import type { TranscriptMessage, Turn } from './transcript-model';

/** One row of the virtualized transcript: a turn's heading or one message of it. */
export type TranscriptRow =
  { kind: 'turn'; key: string; turn: Turn } | { kind: 'message'; key: string; entry: TranscriptMessage };

/** The turns flattened into rows, in order. */
export function transcriptRows(turns: readonly Turn[]): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  for (const turn of turns) {
    rows.push({ kind: 'turn', key: `turn-${turn.number}`, turn });
    for (const entry of turn.messages) rows.push({ kind: 'message', key: entry.message.id, entry });
  }
  return rows;
}

/**
 * The row that shows each message id: a message's own row, and for a tool result shown inside its
 * call's card, the row of the message that made the call (so a link to it still lands somewhere).
 */
export function rowKeysByMessageId(rows: readonly TranscriptRow[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const row of rows) {
    if (row.kind !== 'message') continue;
    keys.set(row.entry.message.id, row.key);
    for (const exchange of row.entry.toolExchanges)
      if (exchange.result !== undefined) keys.set(exchange.result.id, row.key);
  }
  return keys;
}

/** A first guess of a row's height in pixels, from what it holds; replaced once the row is measured. */
export function estimateRowHeight(row: TranscriptRow): number {
  if (row.kind === 'turn') return 64;
  const { entry } = row;
  const textLines = Math.min(24, Math.ceil(entry.text.length / 110) + entry.text.split('\n').length);
  return 90 + textLines * 20 + entry.toolExchanges.length * 320 + entry.compressionEvents.length * 160;
}
