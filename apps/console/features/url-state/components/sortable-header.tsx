import type { SortDirection } from '@agentdesk/api-contract';
import { ariaSortOf, nextSort, type TableSorting } from '../list-sort';

/**
 * A column header the list can be sorted by: a link to the page in that order (the other direction
 * when it is the current order), `aria-sort` on the sorted column and an arrow showing its direction.
 * Without `sorting` (the same table shown unsorted elsewhere, e.g. a person's sessions) a plain header.
 */
export function SortableHeader<Field extends string>({
  field,
  label,
  sorting,
  firstDirection = 'desc',
  className,
}: {
  field: Field;
  label: string;
  sorting: TableSorting<Field> | undefined;
  /** The direction of the first click: `desc` for dates and counts, `asc` for text. */
  firstDirection?: SortDirection;
  className?: string;
}) {
  if (sorting === undefined)
    return (
      <th scope="col" className={className}>
        {label}
      </th>
    );
  const ariaSort = ariaSortOf(sorting.current, field);
  const next = nextSort(sorting.current, field, firstDirection);
  return (
    <th scope="col" className={className} aria-sort={ariaSort}>
      <a
        href={sorting.hrefOf(next)}
        className="sort-link"
        title={`Sort by ${label.toLowerCase()}, ${next.direction === 'asc' ? 'ascending' : 'descending'}`}
      >
        {label}
        {ariaSort !== undefined && (
          <span aria-hidden="true" className="sort-arrow">
            {ariaSort === 'ascending' ? ' ▲' : ' ▼'}
          </span>
        )}
      </a>
    </th>
  );
}
