import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types/json-schema';
import { createAjv, dialectOf, type SchemaDialect } from './ajv-instances';
import { appendPointer } from './json-pointer';
import { isPlainObject } from './json-value';

/** One reason a JSON value failed validation against the caller's schema. */
export interface ValidationIssue {
  /** JSON pointer into the value, e.g. `/items/2/price`. */
  path: string;
  keyword: string;
  message: string;
}

type Compiled = { validate: ValidateFunction } | { failure: string };

/** Validation runs on every model answer: compiled validators are cached by object and by content. */
const byObject = new WeakMap<object, Compiled>();
const byContent = new Map<string, Compiled>();
const CONTENT_CACHE_SIZE = 256;

/**
 * Ajv keeps every compiled schema (and registers `$id`s) on its instance. Schemas are removed again
 * after compiling, and the instance is renewed now and then so nested `$id`s cannot pile up.
 */
const RENEW_AFTER_COMPILES = 1000;
const instances = new Map<SchemaDialect, { ajv: ReturnType<typeof createAjv>; compiles: number }>();

function sharedAjv(dialect: SchemaDialect) {
  let instance = instances.get(dialect);
  if (!instance || instance.compiles >= RENEW_AFTER_COMPILES) {
    instance = { ajv: createAjv(dialect), compiles: 0 };
    instances.set(dialect, instance);
  }
  instance.compiles += 1;
  return instance.ajv;
}

function compile(schema: JsonSchema): Compiled {
  // `$schema` only selected the dialect; Ajv would otherwise insist on knowing the meta-schema URI.
  const { $schema: _dialectUri, ...body } = schema;
  const dialect = dialectOf(schema);
  try {
    const ajv = sharedAjv(dialect);
    try {
      return { validate: ajv.compile(body) };
    } finally {
      ajv.removeSchema(body);
    }
  } catch {
    // A clash with an `$id` left by an earlier schema must not fail this one: retry in isolation.
    try {
      return { validate: createAjv(dialect).compile(body) };
    } catch (error) {
      return { failure: error instanceof Error ? error.message : String(error) };
    }
  }
}

function contentKey(schema: JsonSchema): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined; // cyclic objects cannot be a JSON Schema anyway; Ajv reports it
  }
}

function compiledFor(schema: JsonSchema): Compiled {
  const known = byObject.get(schema);
  if (known) return known;
  const key = contentKey(schema);
  let compiled = key === undefined ? undefined : byContent.get(key);
  if (compiled && key !== undefined) {
    byContent.delete(key); // move to the most recently used end
  } else {
    compiled = compile(schema);
  }
  if (key !== undefined) {
    byContent.set(key, compiled);
    if (byContent.size > CONTENT_CACHE_SIZE) {
      const oldest = byContent.keys().next().value;
      if (oldest !== undefined) byContent.delete(oldest);
    }
  }
  byObject.set(schema, compiled);
  return compiled;
}

function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Ajv's messages made specific: which key is missing or extra, which values were allowed. */
function toIssue(error: ErrorObject): ValidationIssue {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const path = appendPointer(at, String(params.missingProperty));
      return { path, keyword: 'required', message: `${path} is required but missing` };
    }
    case 'additionalProperties': {
      const path = appendPointer(at, String(params.additionalProperty));
      return {
        path,
        keyword: 'additionalProperties',
        message: `${path} is not allowed (no such property in the schema)`,
      };
    }
    case 'enum':
      return {
        path: at,
        keyword: 'enum',
        message: `${at || '/'} must be one of ${quote(params.allowedValues)}`,
      };
    case 'const':
      return { path: at, keyword: 'const', message: `${at || '/'} must be ${quote(params.allowedValue)}` };
    default:
      return {
        path: at,
        keyword: error.keyword,
        message: `${at || '/'} ${error.message ?? `fails "${error.keyword}"`}`,
      };
  }
}

/**
 * Validates a value against the caller's JSON Schema with Ajv (2020-12 unless `$schema` names
 * draft-07 or 2019-09; formats from `ajv-formats`; all errors reported). Never throws: a schema
 * Ajv cannot compile gives `valid: false` with one issue saying why.
 */
export function validateJson(
  schema: JsonSchema,
  value: unknown,
): { valid: boolean; errors: ValidationIssue[] } {
  if (!isPlainObject(schema)) {
    return {
      valid: false,
      errors: [{ path: '', keyword: 'schema', message: 'The schema must be a JSON object.' }],
    };
  }
  const compiled = compiledFor(schema);
  if ('failure' in compiled) {
    return {
      valid: false,
      errors: [
        { path: '', keyword: 'schema', message: `The schema could not be compiled: ${compiled.failure}` },
      ],
    };
  }
  const valid = compiled.validate(value);
  return { valid, errors: valid ? [] : (compiled.validate.errors ?? []).map(toIssue) };
}
