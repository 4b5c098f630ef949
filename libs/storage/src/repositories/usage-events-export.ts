import { sql } from 'kysely';
import type { UsageEventsTable } from '../database-schema';
import { decodeSortCursor, encodeSortCursor, toPage, type Page } from '../pagination';
import { allChunks, EXPORT_CHUNK_SIZE, type ExportChunks } from '../sorted-page';
import type { RepositoryContext } from './repository-context';

/** Which metered calls an export holds: a UTC day range (both ends inclusive) and exact keys. */
export interface UsageEventFilter {
  readonly fromDay: string;
  readonly toDay: string;
  readonly model?: string;
  readonly provider?: string;
  readonly portalId?: string;
  /** The effective user the call was made for (`users.id`). */
  readonly endUserId?: string;
}

/** One metered model call as stored. */
export interface UsageEvent {
  readonly id: string;
  readonly occurredAt: number;
  readonly source: UsageEventsTable['source'];
  readonly model: string;
  readonly provider: string | null;
  readonly apiKeyId: string | null;
  readonly portalId: string | null;
  readonly endUserId: string | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thinkingTokens: number;
  readonly cachedTokens: number;
  readonly latencyMs: number;
  readonly status: UsageEventsTable['status'];
  /** Micro-dollars when a price applied; null: unknown. */
  readonly costMicros: number | null;
}

const MILLISECONDS_PER_DAY = 86_400_000;
const SORT = { sort: 'occurred', direction: 'asc', kind: 'number' } as const;

/**
 * The calls of a day range, oldest first by `(occurred_at, id)`, in keyset chunks of
 * `EXPORT_CHUNK_SIZE` read by the `usage_events(occurred_at, id)` index (migration 0016): each chunk
 * is one range read that starts where the last ended, so a million rows stream in flat memory.
 */
export function exportUsageEvents(
  context: RepositoryContext,
  filter: UsageEventFilter,
): ExportChunks<UsageEvent> {
  return allChunks((cursor) => readChunk(context, filter, cursor));
}

async function readChunk(
  context: RepositoryContext,
  filter: UsageEventFilter,
  cursor: string | null,
): Promise<Page<UsageEvent>> {
  const after = decodeSortCursor(cursor, SORT);
  let query = context.db
    .selectFrom('usage_events')
    .select([
      'id',
      'occurred_at',
      'source',
      'model',
      'provider',
      'api_key_id',
      'portal_id',
      'end_user_id',
      'input_tokens',
      'output_tokens',
      'thinking_tokens',
      'cached_tokens',
      'latency_ms',
      'status',
      'cost_micros',
    ])
    .where('occurred_at', '>=', Date.parse(`${filter.fromDay}T00:00:00Z`))
    .where('occurred_at', '<', Date.parse(`${filter.toDay}T00:00:00Z`) + MILLISECONDS_PER_DAY);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  if (filter.provider !== undefined) query = query.where('provider', '=', filter.provider);
  if (filter.portalId !== undefined) query = query.where('portal_id', '=', filter.portalId);
  if (filter.endUserId !== undefined) query = query.where('end_user_id', '=', filter.endUserId);
  if (after !== null) {
    query = query.where(
      sql<boolean>`(${sql.ref('occurred_at')}, ${sql.ref('id')}) > (${after.value}, ${after.id})`,
    );
  }
  const rows = await query
    .orderBy('occurred_at', 'asc')
    .orderBy('id', 'asc')
    .limit(EXPORT_CHUNK_SIZE + 1)
    .execute();
  return toPage(
    rows,
    EXPORT_CHUNK_SIZE,
    (row) => ({
      id: row.id,
      occurredAt: Number(row.occurred_at),
      source: row.source,
      model: row.model,
      provider: row.provider,
      apiKeyId: row.api_key_id,
      portalId: row.portal_id,
      endUserId: row.end_user_id,
      // PostgreSQL returns bigint columns as strings.
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
      thinkingTokens: Number(row.thinking_tokens),
      cachedTokens: Number(row.cached_tokens),
      latencyMs: Number(row.latency_ms),
      status: row.status,
      costMicros: row.cost_micros === null ? null : Number(row.cost_micros),
    }),
    (row) => encodeSortCursor({ ...SORT, value: Number(row.occurred_at), id: row.id }),
  );
}
