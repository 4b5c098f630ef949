import type { PersonJson } from '@agentdesk/api-contract';
import { formatDateTime, formatTokens } from '../../transcript';
import { visibleText } from '../../visible-text';
import { CostText } from '../../cost';
import { PersonLink } from './person-link';

/** The role a row shows: a portal's end user has none of their own. */
export function roleLabel(person: PersonJson): string {
  if (person.role !== null) return person.role;
  return person.portalId === null ? '—' : 'end user';
}

export function PeopleTable({ people }: { people: readonly PersonJson[] }) {
  if (people.length === 0) return <p className="empty">No user matches these filters.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Users, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email / external id</th>
            <th scope="col">Portal</th>
            <th scope="col">Role</th>
            <th scope="col" className="number">
              Sessions
            </th>
            <th scope="col">Last active</th>
            <th scope="col" className="number">
              Tokens in / out
            </th>
            <th scope="col" className="number">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person.id}>
              <td data-label="Name">
                <PersonLink id={person.id} name={person.displayName ?? person.externalId} />
              </td>
              <td className="mono" data-label="Email / external id">
                {visibleText(person.email ?? person.externalId)}
              </td>
              <td data-label="Portal">{person.portalId === null ? '—' : visibleText(person.portalId)}</td>
              <td data-label="Role">{roleLabel(person)}</td>
              <td className="number" data-label="Sessions">
                <a href={`/sessions?user=${encodeURIComponent(person.id)}`}>{person.sessionCount}</a>
              </td>
              <td data-label="Last active">
                {person.lastActiveAt === null ? (
                  'never'
                ) : (
                  <time dateTime={person.lastActiveAt}>{formatDateTime(person.lastActiveAt)}</time>
                )}
              </td>
              <td className="number" data-label="Tokens in / out">
                {formatTokens(person.usage.inputTokens)} / {formatTokens(person.usage.outputTokens)}
              </td>
              <td className="number" data-label="Cost">
                <CostText cost={person.usage} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
