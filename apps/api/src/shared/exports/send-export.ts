import type { ExportFormat, ExportList } from '@agentdesk/api-contract';
import type { ExportChunks, JsonObject } from '@agentdesk/storage';
import type { FastifyReply } from 'fastify';
import { auditActions } from '../audit/audit-actions';
import type { AuditContext, CrossUserAudit } from '../audit/cross-user-audit';
import { streamExport, type ExportShape } from './export-stream';

/** One export to send: the list, its rows and how they look, and what its audit record says. */
export interface ExportToSend<Row> {
  readonly list: ExportList;
  readonly format: ExportFormat;
  /** The filter and sort asked for (`listingFilter(query)`), kept in the audit record. */
  readonly filter: JsonObject;
  readonly shape: ExportShape<Row>;
  readonly chunks: ExportChunks<Row>;
  /** The one user the filter restricts the export to, if any. */
  readonly targetUserId?: string;
}

/**
 * Streams the export and writes its one audit record (before the last byte when complete) with the row count and how it ended
 * (complete, client gone, failed mid-stream). A failure before the first byte is thrown: the
 * caller's route answers it as a normal error. After the stream began nothing is thrown: the
 * answer is the stream; a failure is logged.
 */
export async function sendExport<Row>(
  reply: FastifyReply,
  context: AuditContext,
  audit: CrossUserAudit,
  toSend: ExportToSend<Row>,
): Promise<void> {
  await streamExport(reply, toSend.format, toSend.shape, toSend.chunks, new Date(), async (outcome) => {
    if (outcome.end === 'failed') {
      reply.log.error({ err: outcome.error, list: toSend.list }, 'export failed mid-stream');
    }
    try {
      await audit.recordExport(context, auditActions.listExport, {
        list: toSend.list,
        format: toSend.format,
        filter: toSend.filter,
        rows: outcome.rows,
        end: outcome.end,
        ...(toSend.targetUserId === undefined ? {} : { targetUserId: toSend.targetUserId }),
      });
    } catch (error) {
      // The rows are out: the answer goes on, the missing record is logged.
      reply.log.error(
        { err: error, list: toSend.list },
        'the audit record of an export could not be written',
      );
    }
  });
}
