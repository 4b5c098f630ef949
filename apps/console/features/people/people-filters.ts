import {
  choiceField,
  dayField,
  pageQuery,
  pagedListQuery,
  textField,
  type FiltersOf,
  type ParsedQuery,
  type SearchParams,
} from '../url-state';

/** Roles the directory filters on (the API names the same four). */
export const personRoleChoices = ['admin', 'viewer', 'qa', 'user', 'portal'] as const;

/** The users page's filters as they sit in its URL. */
export const peopleListQuery = pagedListQuery('/users', {
  /** Start of a name, email or external id. */
  q: textField(),
  /** Portal id (exact). */
  portal: textField(),
  role: choiceField(personRoleChoices, 'Role must be admin, viewer, qa, user or portal.'),
  /** First day of the usage columns, `YYYY-MM-DD` (UTC). */
  from: dayField('Usage from'),
  /** Last day of the usage columns, `YYYY-MM-DD` (UTC). */
  to: dayField('Usage to'),
});

export type PeopleFilters = FiltersOf<typeof peopleListQuery.fields>;

export function parsePeopleFilters(params: SearchParams): ParsedQuery<PeopleFilters> {
  return peopleListQuery.parse(params);
}

/** The query of `GET /v1/admin/users` for these filters. */
export function toPeopleQuery(filters: PeopleFilters, pageSize: number): Record<string, string | undefined> {
  return {
    q: filters.q,
    portalId: filters.portal,
    role: filters.role,
    from: filters.from,
    to: filters.to,
    ...pageQuery(filters.cursor, pageSize),
  };
}

/** Micro-dollars as dollars for a table cell ("$0.0123"); unpriced calls are said apart. */
export function formatCostMicros(micros: number): string {
  const dollars = micros / 1_000_000;
  return `$${dollars.toFixed(dollars !== 0 && Math.abs(dollars) < 0.01 ? 4 : 2)}`;
}
