import { appendPointer } from './json-pointer';
import { isPlainObject } from './json-value';
import type { SchemaChange, SchemaChangeAction } from './schema-change';

/** Position of every pointer of `root` in a pre-order walk, so changes read top to bottom. */
function documentOrder(root: unknown): Map<string, number> {
  const order = new Map<string, number>();
  const visit = (value: unknown, pointer: string): void => {
    order.set(pointer, order.size);
    if (Array.isArray(value)) value.forEach((child, index) => visit(child, appendPointer(pointer, index)));
    else if (isPlainObject(value))
      for (const [key, child] of Object.entries(value)) visit(child, appendPointer(pointer, key));
  };
  visit(root, '');
  return order;
}

/**
 * Collects the change report. A `$defs` entry inlined at several places would report the same
 * change once per use; identical entries are kept once.
 */
export class ChangeLog {
  private readonly seen = new Set<string>();
  private readonly entries: SchemaChange[] = [];

  add(pointer: string, keyword: string, action: SchemaChangeAction, detail: string): void {
    const key = JSON.stringify([pointer, keyword, action, detail]);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push({ pointer, keyword, action, detail });
  }

  /** The changes in the order their pointers appear in `original` (discovery order within a pointer). */
  list(original: unknown): SchemaChange[] {
    const order = documentOrder(original);
    const rank = (pointer: string) => order.get(pointer) ?? Number.MAX_SAFE_INTEGER;
    return this.entries
      .map((entry, index) => ({ entry, index }))
      .sort((left, right) => rank(left.entry.pointer) - rank(right.entry.pointer) || left.index - right.index)
      .map(({ entry }) => ({ ...entry }));
  }
}
