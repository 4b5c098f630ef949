import { z } from 'zod';
import { sortDirections, type ListSort } from '@agentdesk/api-contract';

/**
 * The `sort` and `dir` query parameters of a sortable list: `sort` one of the list's fields (an
 * unknown one is refused with the allowed names), `dir` asc or desc. Either may be left out.
 */
export function sortQueryFields<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return {
    sort: z
      .enum(fields, { error: `must be one of ${fields.join(', ')}` })
      .optional()
      .describe(`Sort by: ${fields.join(', ')} (ties by id; empty values last)`),
    dir: z
      .enum(sortDirections, { error: 'must be asc or desc' })
      .optional()
      .describe('Sort direction (default: the default sort’s, newest first)'),
  };
}

/** The sort a validated query asks for; the default's field and direction fill what it leaves out. */
export function listSortOf<Field extends string>(
  query: { readonly sort?: Field | undefined; readonly dir?: 'asc' | 'desc' | undefined },
  defaultSort: ListSort<Field>,
): ListSort<Field> {
  return { field: query.sort ?? defaultSort.field, direction: query.dir ?? defaultSort.direction };
}
