import type { Session } from '@agentdesk/storage';
import type { ExportShape } from '../shared/exports/export-stream';

/** A session as an export row: the list's columns, token totals apart, times as ISO 8601. */
export const sessionExportShape: ExportShape<Session> = {
  name: 'sessions',
  columns: [
    'id',
    'label',
    'ownerUserId',
    'portalId',
    'status',
    'model',
    'messageCount',
    'inputTokens',
    'outputTokens',
    'thinkingTokens',
    'cachedTokens',
    'createdAt',
    'updatedAt',
  ],
  toRecord: (session) => ({
    id: session.id,
    label: session.label,
    ownerUserId: session.ownerUserId,
    portalId: session.portalId,
    status: session.status,
    model: session.model,
    messageCount: session.messageCount,
    inputTokens: session.tokenTotals.input,
    outputTokens: session.tokenTotals.output,
    thinkingTokens: session.tokenTotals.thinking,
    cachedTokens: session.tokenTotals.cached,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  }),
};
