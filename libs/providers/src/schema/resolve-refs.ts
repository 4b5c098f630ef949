import type { JsonSchema } from '../types/json-schema';
import { appendPointer, unescapePointerToken } from './json-pointer';
import { isPlainObject } from './json-value';
import { SchemaLoweringError } from './schema-lowering-error';

/** What a local `$ref` points at, and where that is in the original schema. */
export interface ResolvedRef {
  value: unknown;
  /** JSON pointer of the target, `''` for the root. */
  pointer: string;
}

function unresolvable(ref: string, at: string, why: string): SchemaLoweringError {
  return new SchemaLoweringError(
    'unresolvable-ref',
    at,
    `Cannot resolve "$ref": ${JSON.stringify(ref)} at ${at || '/'}: ${why}. Only references inside the same schema ` +
      `are supported ("#" or "#/$defs/Name"); put the referenced schema under "$defs" and point at it.`,
  );
}

/**
 * Resolves a `$ref` inside `root`. External documents, `$id`-relative URIs and `$anchor` names are
 * rejected with `unresolvable-ref`: none of the targets can fetch them either.
 */
export function resolveLocalRef(root: JsonSchema, ref: string, at: string): ResolvedRef {
  if (!ref.startsWith('#')) throw unresolvable(ref, at, 'it points to another document');
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    throw unresolvable(ref, at, 'its fragment is not valid percent-encoding');
  }
  if (fragment === '') return { value: root, pointer: '' };
  if (!fragment.startsWith('/')) throw unresolvable(ref, at, 'named anchors are not supported');

  return resolvePointer(root, fragment, (missing) => unresolvable(ref, at, `nothing exists at ${missing}`));
}

/** The value at a JSON pointer inside `root`; `fail` builds the error for a missing segment. */
export function resolvePointer(
  root: JsonSchema,
  pointerText: string,
  fail: (missing: string) => Error,
): ResolvedRef {
  let current: unknown = root;
  let pointer = '';
  for (const rawToken of pointerText === '' ? [] : pointerText.slice(1).split('/')) {
    const token = unescapePointerToken(rawToken);
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < current.length) {
      current = current[Number(token)];
    } else if (isPlainObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      throw fail(appendPointer(pointer, token));
    }
    pointer = appendPointer(pointer, token);
  }
  return { value: current, pointer };
}
