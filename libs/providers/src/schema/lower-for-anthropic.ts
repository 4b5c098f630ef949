import type { JsonSchema } from '../types/json-schema';
import { ChangeLog } from './change-log';
import { StrictDialectLowering } from './lower-strict-dialect';
import { normalizeSchema } from './normalize-schema';
import { needsRootWrap, reportRootWrap, unwrapRootValue, wrapRoot } from './root-wrap';
import { recursionDepthOf } from './recursion-unroll';
import type { LoweredSchema, LoweringOptions } from './schema-change';

/**
 * Lowers a schema to Anthropic's structured-output subset, following its SDK transform:
 * `additionalProperties: false` on every object, `oneOf` → `anyOf`, `$schema` dropped, every `$ref`
 * inlined (recursion unrolled `options.recursionDepth` levels deep), numeric/length/array-size constraints,
 * unsupported formats and regex features moved into descriptions. A non-object root is wrapped
 * (the API's support for other roots is not documented), which `restore` undoes.
 */
export function lowerForAnthropic(schema: JsonSchema, options: LoweringOptions = {}): LoweredSchema {
  const changes = new ChangeLog();
  const normalized = normalizeSchema(
    schema,
    {
      refPolicy: 'inline',
      arrayItemsRequired: false,
      targetName: 'Anthropic',
      recursionDepth: recursionDepthOf(options),
    },
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
