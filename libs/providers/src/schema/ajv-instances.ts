import Ajv, { type Options } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The JSON Schema dialects validation understands. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** Picks the dialect a schema declares in `$schema`; 2020-12 when it declares none (or one Ajv lacks). */
export function dialectOf(schema: Record<string, unknown>): SchemaDialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  // Draft-04/06 schemas are validated as draft-07, their closest supported relative.
  if (/draft-0[467]/.test(declared)) return 'draft-07';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

// `strict: false`: callers' schemas carry vendor keywords; `logger: false`: unknown formats are
// ignored quietly instead of printing on every compile.
const OPTIONS: Options = { allErrors: true, strict: false, logger: false };

/** A fresh Ajv instance for a dialect, with `ajv-formats` installed. */
export function createAjv(dialect: SchemaDialect, options: Options = {}): Ajv {
  const merged = { ...OPTIONS, ...options };
  const ajv =
    dialect === 'draft-07'
      ? new Ajv(merged)
      : dialect === '2019-09'
        ? new Ajv2019(merged)
        : new Ajv2020(merged);
  addFormats(ajv);
  return ajv;
}
