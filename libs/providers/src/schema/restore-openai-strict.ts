import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types/json-schema';
import { createAjv } from './ajv-instances';
import { appendPointer } from './json-pointer';
import { isPlainObject } from './json-value';
import { ROOT_WRAPPER_PROPERTY, unwrapRootValue } from './root-wrap';

/** How to map one part of an answer back to the caller's shape. */
type RestorePlan =
  | { kind: 'keep' }
  | { kind: 'object'; nullMeansAbsent: ReadonlySet<string>; properties: ReadonlyMap<string, RestorePlan> }
  | { kind: 'array'; items: RestorePlan }
  | { kind: 'ref'; ref: string }
  | {
      kind: 'union';
      branches: ReadonlyArray<{ pointer: string; types: ReadonlySet<string> | undefined; plan: RestorePlan }>;
    };

const KEEP: RestorePlan = { kind: 'keep' };
const LOWERED_ID = 'agentdesk:lowered-schema';

function declaredTypes(schema: unknown): ReadonlySet<string> | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type.map(String));
  return undefined;
}

function buildPlan(
  schema: unknown,
  pointer: string,
  nullMeansAbsent: WeakMap<JsonSchema, ReadonlySet<string>>,
): RestorePlan {
  if (!isPlainObject(schema)) return KEEP;
  if (typeof schema.$ref === 'string') return { kind: 'ref', ref: schema.$ref };
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.map((branch, index) => {
      const branchPointer = appendPointer(pointer, 'anyOf', index);
      return {
        pointer: branchPointer,
        types: declaredTypes(branch),
        plan: buildPlan(branch, branchPointer, nullMeansAbsent),
      };
    });
    return branches.every((branch) => branch.plan.kind === 'keep') ? KEEP : { kind: 'union', branches };
  }
  if (isPlainObject(schema.properties)) {
    const properties = new Map<string, RestorePlan>();
    for (const [name, child] of Object.entries(schema.properties)) {
      const plan = buildPlan(child, appendPointer(pointer, 'properties', name), nullMeansAbsent);
      if (plan.kind !== 'keep') properties.set(name, plan);
    }
    const absent = nullMeansAbsent.get(schema) ?? new Set<string>();
    return properties.size === 0 && absent.size === 0
      ? KEEP
      : { kind: 'object', nullMeansAbsent: absent, properties };
  }
  if (schema.items !== undefined) {
    const items = buildPlan(schema.items, appendPointer(pointer, 'items'), nullMeansAbsent);
    return items.kind === 'keep' ? KEEP : { kind: 'array', items };
  }
  return KEEP;
}

function jsonKind(value: object): string {
  return Array.isArray(value) ? 'array' : 'object';
}

/**
 * Builds `restore` for an OpenAI strict lowering: deletes the `null`s that stand for absent optional
 * properties (deep: through objects, arrays, `$defs` references and union branches) and unwraps a
 * wrapped root. Never mutates the answer. Union branches are told apart by their declared type and,
 * when that is not enough, by validating against the lowered branch (a private copy of the schema).
 */
export function createOpenAiStrictRestore(
  lowered: JsonSchema,
  nullMeansAbsent: WeakMap<JsonSchema, ReadonlySet<string>>,
  wrapped: boolean,
): (value: unknown) => unknown {
  const rootPlan = buildPlan(lowered, '', nullMeansAbsent);
  // Every reference the lowering emits ("#", "#/properties/value", "#/$defs/<name>") gets its plan
  // now, so a caller editing the returned schema later cannot change what restore does.
  const refPlans = new Map<string, RestorePlan>([['#', rootPlan]]);
  if (wrapped && isPlainObject(lowered.properties)) {
    const inner = lowered.properties[ROOT_WRAPPER_PROPERTY];
    refPlans.set(
      `#/properties/${ROOT_WRAPPER_PROPERTY}`,
      buildPlan(inner, `/properties/${ROOT_WRAPPER_PROPERTY}`, nullMeansAbsent),
    );
  }
  if (isPlainObject(lowered.$defs)) {
    for (const [name, definition] of Object.entries(lowered.$defs)) {
      const pointer = appendPointer('', '$defs', name);
      refPlans.set(`#${pointer}`, buildPlan(definition, pointer, nullMeansAbsent));
    }
  }
  const snapshot: JsonSchema = structuredClone(lowered);
  let matchers: Map<string, ValidateFunction> | undefined;
  let ajv: ReturnType<typeof createAjv> | undefined;

  const matches = (pointer: string, value: unknown): boolean => {
    if (!ajv) {
      ajv = createAjv('2020-12', { allErrors: false });
      ajv.addSchema(snapshot, LOWERED_ID);
      matchers = new Map();
    }
    let validate = matchers?.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`${LOWERED_ID}#${pointer}`);
      if (!validate) return false;
      matchers?.set(pointer, validate);
    }
    return validate(value) === true;
  };

  const apply = (plan: RestorePlan, value: unknown): unknown => {
    // Only objects can hold properties to remove; primitives and null are final.
    if (plan.kind === 'keep' || value === null || typeof value !== 'object') return value;
    switch (plan.kind) {
      case 'ref':
        return apply(refPlans.get(plan.ref) ?? KEEP, value);
      case 'array':
        return Array.isArray(value) ? value.map((item) => apply(plan.items, item)) : value;
      case 'object': {
        if (!isPlainObject(value)) return value;
        const restored: Record<string, unknown> = {};
        for (const [key, child] of Object.entries(value)) {
          if (child === null && plan.nullMeansAbsent.has(key)) continue;
          const childPlan = plan.properties.get(key);
          restored[key] = childPlan ? apply(childPlan, child) : child;
        }
        return restored;
      }
      case 'union': {
        const kind = jsonKind(value);
        const candidates = plan.branches.filter(
          (branch) => branch.types === undefined || branch.types.has(kind),
        );
        const [only] = candidates;
        const chosen =
          only && candidates.length === 1
            ? only
            : candidates.find((branch) => matches(branch.pointer, value));
        return chosen ? apply(chosen.plan, value) : value;
      }
    }
  };

  return (value: unknown) => {
    const restored = apply(rootPlan, value);
    return wrapped ? unwrapRootValue(restored) : restored;
  };
}
