import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DatabaseDialect } from './database-dialect';
import type { Database } from './database-schema';
import {
  clampPageSize,
  decodeSortCursor,
  encodeSortCursor,
  toPage,
  type Page,
  type PageRequest,
} from './pagination';

/** Rows an export reads per statement: big enough to be fast, small enough to keep memory flat. */
export const EXPORT_CHUNK_SIZE = 5000;

/** An export's rows, read in keyset chunks of `EXPORT_CHUNK_SIZE`: at most one chunk is held at a time. */
export type ExportChunks<Item> = AsyncIterable<readonly Item[]>;

/** How a list is ordered by one value: the SQL expression, its kind, and how to read it off a row. */
export interface SortKey<Row> {
  /** The sort's name as the API knows it (`created`, `label`): it goes into the cursor. */
  readonly name: string;
  readonly expression: RawBuilder<unknown>;
  readonly kind: 'number' | 'text';
  /** Whether the value may be NULL: NULLs come last in both directions. */
  readonly nullable: boolean;
  readonly valueOf: (row: Row) => number | string | null;
}

/**
 * A text column compared the same way on both engines: code point (byte) order. SQLite's default
 * BINARY collation is that already; PostgreSQL's database collation (`en_US.UTF-8`, …) is not, so
 * its column is compared `COLLATE "C"`.
 */
export function textSortExpression(dialect: DatabaseDialect, column: string): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`;
}

/** A numeric column (or sum of columns) as a sort expression. */
export function numberSortExpression(...columns: readonly string[]): RawBuilder<unknown> {
  return sql`${sql.join(
    columns.map((column) => sql.ref(column)),
    sql` + `,
  )}`;
}

/** Columns of `Row` holding numbers (or bigints read as strings), NULL allowed. */
type NumericColumn<Row> = {
  [Column in keyof Row & string]: Row[Column] extends number | string | bigint | null ? Column : never;
}[keyof Row & string];

/** Columns of `Row` holding text. */
type TextColumn<Row> = {
  [Column in keyof Row & string]: Row[Column] extends string ? Column : never;
}[keyof Row & string];

/** A sort by one numeric column (a time, a count): NULLs, where the column allows them, last. */
export function numberColumnSort<Row>(
  name: string,
  column: NumericColumn<Row>,
  options: { readonly nullable?: boolean } = {},
): SortKey<Row> {
  return {
    name,
    expression: numberSortExpression(column),
    kind: 'number',
    nullable: options.nullable ?? false,
    valueOf: (row) => {
      const value = row[column];
      return value === null ? null : Number(value);
    },
  };
}

/** A sort by one text column, in code point order on both engines (`textSortExpression`). */
export function textColumnSort<Row>(
  dialect: DatabaseDialect,
  name: string,
  column: TextColumn<Row>,
): SortKey<Row> {
  return {
    name,
    expression: textSortExpression(dialect, column),
    kind: 'text',
    nullable: false,
    valueOf: (row) => String(row[column]),
  };
}

/**
 * Runs a filtered listing as one keyset page in the order of `key` then `id`, both in `direction`:
 * `(value, id)` after the cursor's (NULL values last in both directions, then by id), `limit + 1`
 * rows to know whether a next page exists, and a cursor that names the sort, so it cannot be used
 * with another. Stable with paging: every row appears exactly once, ties included.
 */
export async function sortedPage<Table extends keyof Database, Row extends { id: string }, Item>(
  query: SelectQueryBuilder<Database, Table, Row>,
  key: SortKey<Row>,
  direction: 'asc' | 'desc',
  page: PageRequest,
  toItem: (row: Row) => Item,
  maxPageSize?: number,
): Promise<Page<Item>> {
  const limit = clampPageSize(page.limit, maxPageSize);
  const after = decodeSortCursor(page.cursor, { sort: key.name, direction, kind: key.kind });
  const value = key.expression;
  const id = sql.ref('id');
  const beyond = direction === 'asc' ? sql`>` : sql`<`;
  let keyed = query;
  if (after !== null) {
    if (after.value === null) {
      keyed = keyed.where(sql<boolean>`(${value} is null and ${id} ${beyond} ${after.id})`);
    } else if (key.nullable) {
      keyed = keyed.where(
        sql<boolean>`(${value} is null or (${value}, ${id}) ${beyond} (${after.value}, ${after.id}))`,
      );
    } else {
      keyed = keyed.where(sql<boolean>`(${value}, ${id}) ${beyond} (${after.value}, ${after.id})`);
    }
  }
  if (key.nullable) keyed = keyed.orderBy(sql`(${value} is null)`, 'asc');
  const rows = await keyed
    .orderBy(value, direction)
    .orderBy(id, direction)
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toItem, (row) =>
    encodeSortCursor({ sort: key.name, direction, value: key.valueOf(row), id: row.id }),
  );
}

/**
 * Every page of a sorted listing, in chunks of `EXPORT_CHUNK_SIZE`, one statement each: each
 * statement is a keyset range read (no OFFSET), so the last chunk costs what the first did. Rows
 * written during the export appear if they sort after the current position.
 */
export async function* allChunks<Item>(
  readChunk: (cursor: string | null) => Promise<Page<Item>>,
): AsyncGenerator<readonly Item[]> {
  let cursor: string | null = null;
  do {
    const page = await readChunk(cursor);
    if (page.items.length > 0) yield page.items;
    cursor = page.nextCursor;
  } while (cursor !== null);
}
