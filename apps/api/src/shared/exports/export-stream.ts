import type { ServerResponse } from 'node:http';
import type { ExportFormat } from '@agentdesk/api-contract';
import type { ExportChunks } from '@agentdesk/storage';
import type { FastifyReply } from 'fastify';
import { clientGoneSignal } from '../../http/client-gone';
import { REQUEST_ID_HEADER, requestIdOf } from '../../http/request-id';
import { csvRecord, type CsvValue } from './csv';

/** One exported row as a flat record: the CSV columns, in order, and the JSON Lines object. */
export type ExportRecord = Readonly<Record<string, CsvValue>>;

/** What a list exports: its file name, its columns and how one row becomes a record. */
export interface ExportShape<Row> {
  /** The file name without extension (`sessions`); the date and the extension are added. */
  readonly name: string;
  readonly columns: readonly string[];
  readonly toRecord: (row: Row) => ExportRecord;
}

/** How an export ended: every row sent, the client gone before the end, or a failure mid-stream. */
export type ExportEnd = 'complete' | 'client-gone' | 'failed';

/** What was sent: rows written to the socket and how the stream ended. */
export interface ExportOutcome {
  readonly rows: number;
  readonly end: ExportEnd;
  readonly error?: unknown;
}

const contentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/jsonl; charset=utf-8',
};

function encodeRows<Row>(shape: ExportShape<Row>, format: ExportFormat, rows: readonly Row[]): string {
  let text = '';
  for (const row of rows) {
    const record = shape.toRecord(row);
    text +=
      format === 'csv'
        ? csvRecord(shape.columns.map((column) => record[column] ?? null))
        : `${JSON.stringify(record)}\n`;
  }
  return text;
}

/** Resolves when the socket takes more (at once unless its buffer is full), or when it closed. */
function written(response: ServerResponse, text: string): Promise<void> {
  if (response.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const settle = (): void => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve();
    };
    response.once('drain', settle);
    response.once('close', settle);
  });
}

/**
 * Streams a list as CSV (RFC 4180, a header row, CRLF) or JSON Lines, one keyset chunk at a time:
 * each chunk is encoded and written in one write, and the next one is read only once the socket
 * took it ('drain'), so a slow client slows the reads and memory stays at about one chunk. The
 * first chunk is read before anything is sent, so a failing query is still a normal JSON error;
 * after that the stream is ours (the reply is hijacked). When the client goes away reading stops;
 * a failure mid-stream destroys the response (the client sees a cut transfer, not a short file).
 */
export async function streamExport<Row>(
  reply: FastifyReply,
  format: ExportFormat,
  shape: ExportShape<Row>,
  chunks: ExportChunks<Row>,
  now: Date,
  beforeEnd: (outcome: ExportOutcome) => Promise<void>,
): Promise<ExportOutcome> {
  const response = reply.raw;
  const clientGone = clientGoneSignal(response);
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  reply.hijack();
  const fileName = `${shape.name}-${now.toISOString().slice(0, 10)}.${format}`;
  response.writeHead(200, {
    [REQUEST_ID_HEADER]: requestIdOf(reply.request.raw),
    'content-type': contentTypes[format],
    'content-disposition': `attachment; filename="${fileName}"`,
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  let rows = 0;
  try {
    if (format === 'csv') await written(response, csvRecord(shape.columns));
    let next = first;
    while (next.done !== true) {
      if (clientGone.aborted || response.destroyed) break;
      await written(response, encodeRows(shape, format, next.value));
      if (clientGone.aborted) break;
      rows += next.value.length;
      next = await iterator.next();
    }
    if (clientGone.aborted || response.destroyed) {
      await iterator.return?.();
      const gone: ExportOutcome = { rows, end: 'client-gone' };
      await beforeEnd(gone);
      return gone;
    }
    // Like the audit trail's records, the complete export's is written before its last byte leaves.
    const complete: ExportOutcome = { rows, end: 'complete' };
    await beforeEnd(complete);
    response.end();
    return complete;
  } catch (error) {
    await iterator.return?.().catch(() => undefined);
    response.destroy();
    const failed: ExportOutcome = { rows, end: 'failed', error };
    await beforeEnd(failed);
    return failed;
  }
}
