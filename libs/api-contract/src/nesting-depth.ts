/**
 * How deep arrays and objects may sit inside each other in any value the API accepts (request
 * bodies, suite files, schemas, lab inputs, metadata). Above what a real value needs — a JSON
 * Schema may nest 64 levels (the providers' MAX_SCHEMA_DEPTH, refused with its own message) and
 * sits a few levels inside its body or suite file — and far below what recursive code (zod,
 * `JSON.stringify`, YAML's `toJS`) survives: a suite 5,000 levels deep overflowed the stack.
 */
export const MAX_NESTING_DEPTH = 100;

/** Where a value first goes deeper than the limit: the path of keys and indexes to that level. */
export interface TooDeep {
  readonly path: readonly (string | number)[];
  readonly limit: number;
}

interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly parent: Visit | undefined;
}

/**
 * The first place where `value` holds arrays or objects nested more than `limit` levels (the value
 * itself, when an array or object, is level 1), or undefined when it stays within. Iterative, so a
 * value too deep for recursive code is measured without overflowing the stack.
 */
export function findTooDeep(value: unknown, limit: number = MAX_NESTING_DEPTH): TooDeep | undefined {
  const pending: Visit[] = [{ value, depth: 1, key: undefined, parent: undefined }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value !== 'object' || visit.value === null) continue;
    if (visit.depth > limit) return { path: pathTo(visit), limit };
    const entries: [string | number, unknown][] = Array.isArray(visit.value)
      ? visit.value.map((item, index) => [index, item])
      : Object.entries(visit.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      if (typeof child === 'object' && child !== null)
        pending.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return undefined;
}

function pathTo(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** How many leading segments of a too-deep path a refusal shows: 65 levels of `[0]` say no more than 8. */
const SEGMENTS_SHOWN = 8;

/**
 * The refusal of a too-deep value: where (rendered by the caller's path style, cut after its first
 * segments), the limit, and what to do.
 */
export function tooDeepMessage(
  tooDeep: TooDeep,
  renderPath: (segments: readonly (string | number)[]) => string,
): string {
  return `${tooDeepWhere(tooDeep, renderPath)}: ${tooDeepProblem(tooDeep)}`;
}

/** Where the value goes too deep, cut after its first segments. */
export function tooDeepWhere(
  tooDeep: TooDeep,
  renderPath: (segments: readonly (string | number)[]) => string,
): string {
  const shown = renderPath(tooDeep.path.slice(0, SEGMENTS_SHOWN));
  return tooDeep.path.length > SEGMENTS_SHOWN ? `${shown}…` : shown;
}

/** What is wrong there, with the limit. */
export function tooDeepProblem(tooDeep: TooDeep): string {
  return `arrays and objects are nested more than ${tooDeep.limit} levels deep here (the most any value may have); flatten the value`;
}
