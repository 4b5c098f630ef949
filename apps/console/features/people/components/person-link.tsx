import { visibleText } from '../../visible-text';

/**
 * A person wherever an id of one is shown: their name linking to their page, the full id in the
 * link's title (hover) and in a visually hidden span that copying the cell takes along. Without a
 * name, the start of the id stands in.
 */
export function PersonLink({ id, name }: { id: string; name?: string | null | undefined }) {
  const shown = name === null || name === undefined || name === '' ? `${id.slice(0, 8)}…` : name;
  return (
    <a href={`/users/${encodeURIComponent(id)}`} title={`User id ${visibleText(id)}`} className="person-link">
      {visibleText(shown)}
      <span className="visually-hidden"> (user id {visibleText(id)})</span>
    </a>
  );
}
