import type { JsonDiffEntry } from '@agentdesk/api-contract';
import { isPlainObject, jsonEqual } from '../assertions/json-equal';
import { escapePointerToken } from '../assertions/resolve-pointer';

function diffInto(before: unknown, after: unknown, pointer: string, entries: JsonDiffEntry[]): void {
  if (jsonEqual(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of Object.keys(before)) {
      const child = `${pointer}/${escapePointerToken(key)}`;
      if (!Object.prototype.hasOwnProperty.call(after, key))
        entries.push({ pointer: child, op: 'removed', before: before[key] });
      else diffInto(before[key], after[key], child, entries);
    }
    for (const key of Object.keys(after)) {
      if (!Object.prototype.hasOwnProperty.call(before, key)) {
        entries.push({ pointer: `${pointer}/${escapePointerToken(key)}`, op: 'added', after: after[key] });
      }
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    for (let index = 0; index < common; index += 1)
      diffInto(before[index], after[index], `${pointer}/${index}`, entries);
    for (let index = common; index < after.length; index += 1)
      entries.push({ pointer: `${pointer}/${index}`, op: 'added', after: after[index] });
    // Highest index first, so the entries can be applied one after another.
    for (let index = before.length - 1; index >= common; index -= 1) {
      entries.push({ pointer: `${pointer}/${index}`, op: 'removed', before: before[index] });
    }
    return;
  }
  entries.push({ pointer, op: 'changed', before, after });
}

/**
 * The differences between two JSON values as pointer-level operations: objects by key, arrays
 * position by position (extra items added at the end, missing ones removed from the end, highest
 * index first), anything else `changed`. Applying the entries in order to `before` gives `after`.
 */
export function jsonDiff(before: unknown, after: unknown): JsonDiffEntry[] {
  const entries: JsonDiffEntry[] = [];
  diffInto(before, after, '', entries);
  return entries;
}
