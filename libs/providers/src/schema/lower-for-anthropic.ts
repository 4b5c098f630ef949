import type { JsonSchema } from '../types/json-schema';
import { ChangeLog } from './change-log';
import { StrictDialectLowering } from './lower-strict-dialect';
import { normalizeSchema } from './normalize-schema';
import { needsRootWrap, reportRootWrap, unwrapRootValue, wrapRoot } from './root-wrap';
import type { LoweredSchema } from './schema-change';

/**
 * Lowers a schema to Anthropic's structured-output subset, following its SDK transform:
 * `additionalProperties: false` on every object, `oneOf` → `anyOf`, `$schema` dropped, every `$ref`
 * inlined (recursion is rejected with `SchemaLoweringError`), numeric/length/array-size constraints,
 * unsupported formats and regex features moved into descriptions. A non-object root is wrapped
 * (the API's support for other roots is not documented), which `restore` undoes.
 */
export function lowerForAnthropic(schema: JsonSchema): LoweredSchema {
  const changes = new ChangeLog();
  const normalized = normalizeSchema(
    schema,
    { refPolicy: 'inline', arrayItemsRequired: false, targetName: 'Anthropic' },
    changes,
  );
  const wrapped = needsRootWrap(normalized.root);
  if (wrapped) reportRootWrap(changes, 'Anthropic');
  const lowering = new StrictDialectLowering(
    { target: 'anthropic', allPropertiesRequired: false, rootReference: '#' },
    normalized,
    changes,
  );
  const root = lowering.lower(normalized.root);
  return {
    target: 'anthropic',
    schema: wrapped ? wrapRoot(root) : root,
    changes: changes.list(schema),
    restore: wrapped ? unwrapRootValue : (value) => value,
  };
}
