import type { QueryField } from './query-field';
import { singleParam, type SearchParams } from './search-params';

/** A page's filters by name, in the order they appear in its links. */
export type FieldTable = Readonly<Record<string, QueryField<unknown>>>;

type ValueOf<Field> = Field extends QueryField<infer Value> ? Value : never;
type DefaultedNames<Fields extends FieldTable> = {
  [Name in keyof Fields]: Fields[Name] extends { readonly fallback: unknown } ? Name : never;
}[keyof Fields];

/** The filters a table reads: a field with a fallback always has a value, the others may be unset. */
export type FiltersOf<Fields extends FieldTable> = {
  [Name in DefaultedNames<Fields>]: ValueOf<Fields[Name]>;
} & {
  [Name in Exclude<keyof Fields, DefaultedNames<Fields>>]?: ValueOf<Fields[Name]>;
};

export interface ParsedQuery<Filters> {
  filters: Filters;
  /** Values that cannot be used, each naming its field and what to fix (never quoting the URL). */
  problems: string[];
}

/** A page's URL: its filters read from the query, and links with some of them changed. */
export interface ListQuery<Fields extends FieldTable> {
  readonly path: string;
  readonly fields: Fields;
  parse(params: SearchParams): ParsedQuery<FiltersOf<Fields>>;
  /** This page's URL with `changes` applied (`undefined` removes a filter); only filters set appear. */
  href(filters: FiltersOf<Fields>, changes?: Partial<FiltersOf<Fields>>): string;
}

/** The URL of `path` holding `values`, each written by its field, in the table's order. */
export function formatQuery(
  path: string,
  fields: FieldTable,
  values: Readonly<Record<string, unknown>>,
): string {
  const query = new URLSearchParams();
  for (const [name, field] of Object.entries(fields)) {
    const value = values[name];
    const text = value === undefined ? undefined : field.write(value);
    if (text !== undefined) query.set(field.param ?? name, text);
  }
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** Reads `params` with each field of the table; see `ListQuery.parse`. */
export function parseQuery(fields: FieldTable, params: SearchParams): ParsedQuery<Record<string, unknown>> {
  const filters: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const text = singleParam(params, field.param ?? name);
    const reading = text === undefined ? undefined : field.read(text);
    if (reading?.kind === 'value') filters[name] = reading.value;
    else if (field.fallback !== undefined) filters[name] = field.fallback;
    if (reading?.kind === 'problem') problems.push(reading.problem);
  }
  return { filters, problems };
}

/**
 * The one way a console page reads its filters from its URL and writes them into its links (so a
 * filtered list can be bookmarked and shared, and Back works). `fields` lists them in link order;
 * a paged list ends with `cursor` (`pagedListQuery`).
 */
export function listQuery<const Fields extends FieldTable>(path: string, fields: Fields): ListQuery<Fields> {
  return {
    path,
    fields,
    // The table's names and value types are the filters' own: the record built from it is one.
    parse: (params) => parseQuery(fields, params) as ParsedQuery<FiltersOf<Fields>>,
    href: (filters, changes = {}) => formatQuery(path, fields, { ...filters, ...changes }),
  };
}
