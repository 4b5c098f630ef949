import type { SessionJson } from '@agentdesk/api-contract';
import { formatDateTime, formatTokens } from '../../transcript';
import { visibleText } from '../../visible-text';

export function SessionsTable({ sessions }: { sessions: readonly SessionJson[] }) {
  if (sessions.length === 0) return <p className="empty">No session matches these filters.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Sessions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">User</th>
            <th scope="col">Portal</th>
            <th scope="col">Status</th>
            <th scope="col">Model</th>
            <th scope="col" className="number">
              Messages
            </th>
            <th scope="col" className="number">
              Tokens in / out
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>
                <a href={`/sessions/${session.id}`}>
                  {session.label === '' ? 'Untitled session' : visibleText(session.label)}
                </a>
              </td>
              <td>
                <a
                  href={`/sessions?user=${encodeURIComponent(session.ownerUserId)}`}
                  className="mono"
                  title={`Only the sessions of ${visibleText(session.ownerUserId)}`}
                >
                  {visibleText(session.ownerUserId.slice(0, 8))}…
                </a>
              </td>
              <td>{session.portalId === null ? '—' : visibleText(session.portalId)}</td>
              <td>
                <span className={`badge badge-${session.status}`}>{session.status}</span>
              </td>
              <td className="mono">{session.model === null ? 'default' : visibleText(session.model)}</td>
              <td className="number">{session.messageCount}</td>
              <td className="number">
                {formatTokens(session.tokenTotals.input)} / {formatTokens(session.tokenTotals.output)}
              </td>
              <td>
                <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
