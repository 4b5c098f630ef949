/*
 * Text both engines store unchanged. PostgreSQL refuses U+0000 in `text` and `jsonb`, and its jsonb
 * parser refuses an escaped unpaired surrogate (`"\udc00"`); node-postgres and better-sqlite3 encode
 * an unpaired surrogate in plain text as U+FFFD, silently changing it. Such text is refused before
 * it reaches a query, the same way on both engines.
 */

// An unpaired UTF-16 surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const nulCharacter = '\u0000';

/**
 * Why `text` cannot be stored unchanged (the first offending position), or undefined when it can:
 * `contains an unpaired UTF-16 surrogate at index 5 (U+DC00)` or
 * `contains a NUL character (U+0000), which cannot be stored (at index 0)`.
 */
export function unstorableTextProblem(text: string): string | undefined {
  const nulIndex = text.indexOf(nulCharacter);
  const surrogateIndex = text.search(unpairedSurrogate);
  if (nulIndex === -1 && surrogateIndex === -1) return undefined;
  if (surrogateIndex !== -1 && (nulIndex === -1 || surrogateIndex < nulIndex)) {
    const codeUnit = text.charCodeAt(surrogateIndex).toString(16).toUpperCase();
    return `contains an unpaired UTF-16 surrogate at index ${surrogateIndex} (U+${codeUnit})`;
  }
  return `contains a NUL character (U+0000), which cannot be stored (at index ${nulIndex})`;
}

/** Where in a JSON value unstorable text was found, and what is wrong with it. */
export interface UnstorableText {
  /** Keys and indexes from the root to the value (to the object, when a key is at fault). */
  readonly path: ReadonlyArray<string | number>;
  /** The key at fault, when it is a key rather than a value. */
  readonly key?: string;
  readonly problem: string;
}

interface Visit {
  readonly value: unknown;
  readonly parent: Visit | undefined;
  readonly step: string | number | undefined;
}

function pathOf(visit: Visit): Array<string | number> {
  const path: Array<string | number> = [];
  for (let current: Visit | undefined = visit; current?.step !== undefined; current = current.parent)
    path.push(current.step);
  return path.reverse();
}

/**
 * The first string (value or object key) anywhere in `root` that cannot be stored unchanged.
 * Iterative, with parent links instead of copied paths: a body nested 100,000 levels deep costs
 * neither stack nor quadratic memory.
 */
export function findUnstorableText(root: unknown): UnstorableText | undefined {
  const pending: Visit[] = [{ value: root, parent: undefined, step: undefined }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      const problem = unstorableTextProblem(value);
      if (problem !== undefined) return { path: pathOf(visit), problem };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1)
        pending.push({ value: value[index], parent: visit, step: index });
      continue;
    }
    const entries = Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, item] = entries[index]!;
      const problem = unstorableTextProblem(key);
      if (problem !== undefined) return { path: pathOf(visit), key, problem };
      pending.push({ value: item, parent: visit, step: key });
    }
  }
  return undefined;
}
