import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from './database-schema';
import {
  clampPageSize,
  decodeTimeCursor,
  encodeTimeCursor,
  toPage,
  type Page,
  type PageRequest,
} from './pagination';

/** Tables listed newest first by `(created_at, id)`, with an index on exactly that order. */
export type NewestFirstTable =
  | 'api_keys'
  | 'sessions'
  | 'structured_output_runs'
  | 'users'
  | 'sandbox_builds'
  | 'console_sessions'
  | 'qa_suites'
  | 'qa_suite_runs';

/**
 * Runs a filtered listing as one keyset page, newest first: `(created_at, id) < cursor`, `limit + 1`
 * rows to know whether a next page exists, and the cursor of the last row returned.
 */
export async function newestFirstPage<Table extends NewestFirstTable, Item>(
  query: SelectQueryBuilder<Database, Table, Selectable<Database[Table]>>,
  page: PageRequest,
  toItem: (row: Selectable<Database[Table]>) => Item,
): Promise<Page<Item>> {
  const limit = clampPageSize(page.limit);
  const after = decodeTimeCursor(page.cursor);
  // Every listed table has these two columns; one concrete table lets Kysely type the references.
  let keyed = query as unknown as SelectQueryBuilder<Database, 'sessions', Selectable<Database['sessions']>>;
  if (after !== null) {
    keyed = keyed.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)),
    );
  }
  const rows = (await keyed
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()) as unknown as Array<Selectable<Database[Table]> & { created_at: number; id: string }>;
  return toPage(rows, limit, toItem, (row) => encodeTimeCursor({ createdAt: row.created_at, id: row.id }));
}
