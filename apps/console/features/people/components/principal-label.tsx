import { visibleText } from '../../visible-text';
import { PersonLink } from './person-link';

/** A user id as this API makes them (UUID layout); anything else (a portal id, `anonymous`, `host`) is not a person. */
const userIdLayout = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who did something, by a principal id: a user as a `PersonLink`; a portal, the host or the dev-mode
 * anonymous user as what it is, without a link to a user page that does not exist. `kind`, when the
 * API says it (audit records), decides; otherwise an id not in a user id's layout is not a user.
 */
export function PrincipalLabel({
  id,
  name,
  kind,
}: {
  id: string;
  name?: string | null | undefined;
  kind?: string | undefined;
}) {
  const isUser = kind === undefined ? userIdLayout.test(id) : kind === 'user';
  if (isUser) return <PersonLink id={id} name={name} />;
  const what = kind ?? (id === 'anonymous' ? 'anonymous' : 'principal');
  const label = what === id ? what : `${what} ${id}`;
  return (
    <span className="mono" title={visibleText(id)}>
      {visibleText(label)}
    </span>
  );
}
