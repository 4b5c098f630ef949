import { randomUUID } from 'node:crypto';
import { splitsSurrogatePair } from '../tokens/text-chunks';

/** What is stored: the full text of one tool result, before any truncation. */
export interface ToolResultRecord {
  toolCallId: string;
  toolName: string;
  content: string;
}

/** One page of a stored tool result. Offsets and lengths are in characters (UTF-16 code units). */
export interface ToolResultPage {
  id: string;
  toolCallId: string;
  toolName: string;
  /** Where this page starts. */
  offset: number;
  content: string;
  /** Length of the whole stored result. */
  totalCharacters: number;
  /** Offset of the next page, or `null` at the end. */
  nextOffset: number | null;
}

/**
 * Keeps the full original of every tool result the compressor cuts or removes, so nothing is lost:
 * the truncated text names the id, and `read_tool_result` pages through it. The API persists it;
 * {@link InMemoryToolResultStore} serves tests and single-process use.
 */
export interface ToolResultStore {
  /** Stores a result and returns its id. Storing the same call's same content again returns the same id. */
  put(record: ToolResultRecord): Promise<string>;
  /**
   * Reads `limit` characters from `offset`. A page never splits a surrogate pair, so it may be one
   * character shorter (or, for `limit` 1 on a pair, longer). `undefined` for an unknown id.
   */
  get(id: string, offset: number, limit: number): Promise<ToolResultPage | undefined>;
}

/** Options of {@link InMemoryToolResultStore}. */
export interface InMemoryToolResultStoreOptions {
  /** Makes ids; default `tr_` + 24 random hex digits. */
  createId?: () => string;
}

/** A {@link ToolResultStore} in process memory. */
export class InMemoryToolResultStore implements ToolResultStore {
  private readonly records = new Map<string, ToolResultRecord>();
  private readonly idsByToolCall = new Map<string, string>();
  private readonly createId: () => string;

  constructor(options: InMemoryToolResultStoreOptions = {}) {
    this.createId = options.createId ?? (() => `tr_${randomUUID().replaceAll('-', '').slice(0, 24)}`);
  }

  /** Number of stored results. */
  get size(): number {
    return this.records.size;
  }

  async put(record: ToolResultRecord): Promise<string> {
    const existingId = this.idsByToolCall.get(record.toolCallId);
    // Same string object → pointer comparison, so re-compressing an unchanged scratchpad is O(1) here.
    if (existingId !== undefined && this.records.get(existingId)?.content === record.content)
      return existingId;
    const id = this.createId();
    this.records.set(id, { ...record });
    this.idsByToolCall.set(record.toolCallId, id);
    return id;
  }

  async get(id: string, offset: number, limit: number): Promise<ToolResultPage | undefined> {
    const record = this.records.get(id);
    if (record === undefined) return undefined;
    return pageOf(id, record, offset, limit);
  }
}

/** Cuts one page out of a stored record; shared by store implementations. */
export function pageOf(id: string, record: ToolResultRecord, offset: number, limit: number): ToolResultPage {
  const total = record.content.length;
  let start = Math.min(Math.max(0, Math.trunc(offset)), total);
  if (splitsSurrogatePair(record.content, start)) start -= 1;
  let end = Math.min(total, start + Math.max(0, Math.trunc(limit)));
  // Keep surrogate pairs whole; a one-character page on a pair grows to the pair so paging always advances.
  if (splitsSurrogatePair(record.content, end)) end = end - 1 > start ? end - 1 : end + 1;
  return {
    id,
    toolCallId: record.toolCallId,
    toolName: record.toolName,
    offset: start,
    content: record.content.slice(start, end),
    totalCharacters: total,
    nextOffset: end < total ? end : null,
  };
}
