import type { JsonSchema } from '../types/json-schema';
import type { ChangeLog } from './change-log';
import { isPlainObject } from './json-value';
import type { SchemaNode } from './schema-node';

/** The property a non-object root is wrapped in. */
export const ROOT_WRAPPER_PROPERTY = 'value';

/** OpenAI strict mode (and, to be safe, Anthropic) want a plain object at the root. */
export function needsRootWrap(root: SchemaNode): boolean {
  return !(root.kind === 'typed' && root.type === 'object' && !root.nullable);
}

/** Reported before anything else: it changes the shape of every answer. */
export function reportRootWrap(changes: ChangeLog, targetName: string): void {
  changes.add(
    '',
    'type',
    'added',
    `${targetName} needs an object at the root: the schema was wrapped as {"${ROOT_WRAPPER_PROPERTY}": …}; restore() unwraps the answer.`,
  );
}

export function wrapRoot(lowered: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { [ROOT_WRAPPER_PROPERTY]: lowered },
    required: [ROOT_WRAPPER_PROPERTY],
    additionalProperties: false,
  };
}

/** Takes the answer back out of the wrapper; anything else is returned as it is. */
export function unwrapRootValue(value: unknown): unknown {
  return isPlainObject(value) && Object.hasOwn(value, ROOT_WRAPPER_PROPERTY)
    ? value[ROOT_WRAPPER_PROPERTY]
    : value;
}
