import type { JsonSchema } from '../types/json-schema';
import { ChangeLog } from './change-log';
import { StrictDialectLowering } from './lower-strict-dialect';
import { normalizeSchema } from './normalize-schema';
import { createOpenAiStrictRestore } from './restore-openai-strict';
import { needsRootWrap, reportRootWrap, ROOT_WRAPPER_PROPERTY, wrapRoot } from './root-wrap';
import type { LoweredSchema } from './schema-change';

/**
 * Lowers a schema to OpenAI's strict structured-output subset: object root (a non-object root is
 * wrapped as `{value: …}`), `additionalProperties: false` and a complete `required` on every object,
 * optional properties made nullable, `$defs` + local `$ref` kept (recursion included), `oneOf` →
 * `anyOf`, `allOf` merged, unsupported keywords moved into descriptions. `restore` unwraps the root
 * and removes the nulls that stand for absent optional properties.
 */
export function lowerForOpenAiStrict(schema: JsonSchema): LoweredSchema {
  const changes = new ChangeLog();
  const normalized = normalizeSchema(
    schema,
    {
      refPolicy: 'keep-defs',
      arrayItemsRequired: true,
      targetName: 'OpenAI strict mode',
      recursionDepth: undefined,
    },
    changes,
  );
  const wrapped = needsRootWrap(normalized.root);
  if (wrapped) reportRootWrap(changes, 'OpenAI strict mode');
  const lowering = new StrictDialectLowering(
    {
      target: 'openai-strict',
      allPropertiesRequired: true,
      rootReference: wrapped ? `#/properties/${ROOT_WRAPPER_PROPERTY}` : '#',
    },
    normalized,
    changes,
  );
  const loweredRoot = lowering.lower(normalized.root);
  const root = wrapped ? wrapRoot(loweredRoot) : loweredRoot;
  const definitions = lowering.lowerDefinitions();
  const lowered: JsonSchema = definitions ? { ...root, $defs: definitions } : root;
  // The restore plan finds optional properties by object identity; the root was just copied.
  const rootAbsent = lowering.nullMeansAbsent.get(root);
  if (rootAbsent) lowering.nullMeansAbsent.set(lowered, rootAbsent);
  const restore = createOpenAiStrictRestore(lowered, lowering.nullMeansAbsent, wrapped);
  return { target: 'openai-strict', schema: lowered, changes: changes.list(schema), restore };
}
