import type { SessionJson, SessionSortField } from '@agentdesk/api-contract';
import { formatDateTime, formatTokens } from '../../transcript';
import { CostText } from '../../cost';
import { PersonLink } from '../../people';
import { SortableHeader, type TableSorting } from '../../url-state';
import { visibleText } from '../../visible-text';

/** Sessions; with `sorting`, the sortable columns' headers link to the list in their order. */
export function SessionsTable({
  sessions,
  sorting,
}: {
  sessions: readonly SessionJson[];
  sorting?: TableSorting<SessionSortField>;
}) {
  if (sessions.length === 0) return <p className="empty">No session matches these filters.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Sessions</caption>
        <thead>
          <tr>
            <SortableHeader field="label" label="Session" sorting={sorting} firstDirection="asc" />
            <th scope="col">User</th>
            <th scope="col">Portal</th>
            <th scope="col">Status</th>
            <th scope="col">Model</th>
            <SortableHeader field="messages" label="Messages" sorting={sorting} className="number" />
            <SortableHeader field="tokens" label="Tokens in / out" sorting={sorting} className="number" />
            <th scope="col" className="number">
              Cost
            </th>
            <SortableHeader field="created" label="Created" sorting={sorting} />
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td data-label="Session">
                <a href={`/sessions/${session.id}`}>
                  {session.label === '' ? 'Untitled session' : visibleText(session.label)}
                </a>
              </td>
              <td data-label="User">
                <PersonLink id={session.ownerUserId} name={session.ownerName} />
              </td>
              <td data-label="Portal">{session.portalId === null ? '—' : visibleText(session.portalId)}</td>
              <td data-label="Status">
                <span className={`badge badge-${session.status}`}>{session.status}</span>
              </td>
              <td className="mono" data-label="Model">
                {session.model === null ? 'default' : visibleText(session.model)}
              </td>
              <td className="number" data-label="Messages">
                {session.messageCount}
              </td>
              <td className="number" data-label="Tokens in / out">
                {formatTokens(session.tokenTotals.input)} / {formatTokens(session.tokenTotals.output)}
              </td>
              <td className="number" data-label="Cost">
                <CostText cost={session} />
              </td>
              <td data-label="Created">
                <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
