import { isUtf8 } from 'node:buffer';
import { findUnstorableText } from './storable-text';
import { StorageError, StorageErrorCode } from './storage-error';

/** Page size used when the caller asks for none. */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page of sessions, users, keys or audit entries; larger requests are capped. */
export const MAX_PAGE_SIZE = 100;
/** Largest page of messages (transcripts are read in bigger pages). */
export const MAX_MESSAGE_PAGE_SIZE = 500;

/** Which page to read: `cursor` is the `nextCursor` of the previous page, absent for the first. */
export interface PageRequest {
  readonly limit?: number;
  readonly cursor?: string | null;
}

/** One page of a keyset-paginated list; `nextCursor` is null on the last page. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** Caps the requested size to `[1, max]`; a missing or non-finite size gives the default. */
export function clampPageSize(limit: number | undefined, max: number = MAX_PAGE_SIZE): number {
  if (limit === undefined || !Number.isFinite(limit)) return Math.min(DEFAULT_PAGE_SIZE, max);
  return Math.min(max, Math.max(1, Math.trunc(limit)));
}

/** The position after which a `(created_at, id)` page starts, newest first. */
export interface TimeKey {
  readonly createdAt: number;
  readonly id: string;
}

// Cursors are opaque to callers (base64url of a small JSON array) so the key can change later.
function encode(values: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

const base64url = /^[A-Za-z0-9_-]+$/;

/** Longest cursor accepted: a label sort's cursor carries a label of up to 200 characters. */
export const MAX_CURSOR_LENGTH = 2048;

/**
 * Decodes strictly: Node's base64 decoder skips characters outside the alphabet and its UTF-8
 * decoder turns bad bytes into U+FFFD, and a hand-made cursor may carry NUL or an unpaired
 * surrogate (`["t",1,"\u0000"]`) that PostgreSQL refuses mid-query. Each is an invalid cursor.
 */
function decode(cursor: string): unknown {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !base64url.test(cursor))
    throw invalidCursor();
  const bytes = Buffer.from(cursor, 'base64url');
  if (!isUtf8(bytes)) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw invalidCursor(error);
  }
  if (findUnstorableText(value) !== undefined) throw invalidCursor();
  return value;
}

function invalidCursor(cause?: unknown): StorageError {
  return new StorageError(StorageErrorCode.InvalidCursor, 'cursor', 'The pagination cursor is not valid', {
    cause,
  });
}

/** Encodes a `(created_at, id)` key. */
export function encodeTimeCursor(key: TimeKey): string {
  return encode(['t', key.createdAt, key.id]);
}

/** Decodes a `(created_at, id)` cursor, or null for the first page; throws `InvalidCursor` on garbage. */
export function decodeTimeCursor(cursor: string | null | undefined): TimeKey | null {
  if (cursor === null || cursor === undefined) return null;
  const value = decode(cursor);
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    value[0] !== 't' ||
    !Number.isSafeInteger(value[1]) ||
    typeof value[2] !== 'string' ||
    value[2].length > 64
  ) {
    throw invalidCursor();
  }
  return { createdAt: value[1] as number, id: value[2] };
}

/** Encodes a position in an index ordered by an integer row number (SQLite's search index). */
export function encodeRowCursor(row: number): string {
  return encode(['r', row]);
}

/** Decodes a row-number cursor, or null for the first page; throws `InvalidCursor` on garbage. */
export function decodeRowCursor(cursor: string | null | undefined): number | null {
  if (cursor === null || cursor === undefined) return null;
  const value = decode(cursor);
  if (!Array.isArray(value) || value.length !== 2 || value[0] !== 'r' || !Number.isSafeInteger(value[1])) {
    throw invalidCursor();
  }
  return value[1] as number;
}

/** Encodes a message sequence number cursor. */
export function encodeSequenceCursor(sequence: number): string {
  return encode(['s', sequence]);
}

/** Decodes a sequence cursor (0 = before the first message); throws `InvalidCursor` on garbage. */
export function decodeSequenceCursor(cursor: string | null | undefined): number {
  if (cursor === null || cursor === undefined) return 0;
  const value = decode(cursor);
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    value[0] !== 's' ||
    !Number.isSafeInteger(value[1]) ||
    (value[1] as number) < 0
  ) {
    throw invalidCursor();
  }
  return value[1] as number;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only proves a next page exists, and
 * the cursor points at the last row actually returned.
 */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  map: (row: Row) => Item,
  cursorOf: (row: Row) => string,
): Page<Item> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return { items: pageRows.map(map), nextCursor: hasMore && last !== undefined ? cursorOf(last) : null };
}

/** Escapes `%`, `_` and `\` so user text matches literally inside `LIKE … ESCAPE '\'`. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A position in a list sorted by one value then id: the sort it was made for travels with it. */
export interface SortKeyPosition {
  /** The sort's name (`created`, `label`, …) and direction: a cursor of another sort is refused. */
  readonly sort: string;
  readonly direction: 'asc' | 'desc';
  /** The sort value of the last row returned (null: the row had none). */
  readonly value: number | string | null;
  readonly id: string;
}

/** What an `InvalidCursor` error says when the cursor was made for another sort order. */
export const CURSOR_OF_ANOTHER_SORT =
  'The pagination cursor was made for another sort order; start again without a cursor';

/** Encodes a `(sort value, id)` position with its sort. */
export function encodeSortCursor(position: SortKeyPosition): string {
  return encode(['k', position.sort, position.direction, position.value, position.id]);
}

/**
 * Decodes a `(sort value, id)` cursor made for exactly this sort and direction, or null for the
 * first page; throws `InvalidCursor` on garbage and on a cursor of another sort (its position means
 * nothing in this order: the client must start again from the first page).
 */
export function decodeSortCursor(
  cursor: string | null | undefined,
  expected: { readonly sort: string; readonly direction: 'asc' | 'desc'; readonly kind: 'number' | 'text' },
): SortKeyPosition | null {
  if (cursor === null || cursor === undefined) return null;
  const value = decode(cursor);
  if (!Array.isArray(value) || value.length !== 5 || value[0] !== 'k') throw invalidCursor();
  const [, sort, direction, sortValue, id] = value as unknown[];
  if (
    sort !== expected.sort ||
    (direction !== 'asc' && direction !== 'desc') ||
    direction !== expected.direction
  ) {
    throw new StorageError(StorageErrorCode.InvalidCursor, 'cursor', CURSOR_OF_ANOTHER_SORT);
  }
  const valueFits =
    sortValue === null ||
    (expected.kind === 'number' ? Number.isSafeInteger(sortValue) : typeof sortValue === 'string');
  if (!valueFits || typeof id !== 'string' || id.length > 64) throw invalidCursor();
  return { sort, direction, value: sortValue as number | string | null, id };
}
