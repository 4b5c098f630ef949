import type { ConsoleSessionJson } from '@agentdesk/api-contract';
import { PersonLink } from '../../people';
import { formatDateTime } from '../../transcript';
import { visibleText } from '../../visible-text';
import {
  browserSummary,
  consoleSessionsHref,
  describeState,
  type ConsoleSessionView,
} from '../console-session-view';

/** The person's name as the page shows it: their display name, else their external id. */
function nameOf(session: ConsoleSessionJson): string | null {
  if (session.user === null) return null;
  return session.user.displayName ?? session.user.externalId;
}

/** Console sign-ins, newest first; "End" for open ones when the viewer may end them (a plain form post). */
export function ConsoleSessionsTable({
  sessions,
  view,
  canEnd,
}: {
  sessions: readonly ConsoleSessionJson[];
  view: ConsoleSessionView;
  canEnd: boolean;
}) {
  if (sessions.length === 0) return <p className="empty">No sign-in here.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Console sign-ins, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Way in</th>
            <th scope="col">Signed in</th>
            <th scope="col">Last seen</th>
            <th scope="col">Address</th>
            <th scope="col">Browser</th>
            <th scope="col">State</th>
            {canEnd && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td data-label="Person">
                <PersonLink id={session.userId} name={nameOf(session)} />{' '}
                <a
                  href={consoleSessionsHref(view, { userId: session.userId, cursor: undefined })}
                  title="Only this person’s sign-ins"
                  className="muted"
                >
                  only theirs
                </a>
              </td>
              <td data-label="Way in">{session.wayIn === 'api-key' ? 'API key' : 'single sign-on'}</td>
              <td data-label="Signed in">
                <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
              </td>
              <td data-label="Last seen">
                <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
              </td>
              <td className="mono" data-label="Address">
                {session.clientAddress === null ? '—' : visibleText(session.clientAddress)}
              </td>
              <td
                data-label="Browser"
                title={session.userAgent === null ? undefined : visibleText(session.userAgent)}
              >
                {session.userAgent === null ? '—' : visibleText(browserSummary(session.userAgent))}
              </td>
              <td data-label="State">
                {describeState(session)}
                {session.status === 'open' && (
                  <span className="muted">
                    {' '}
                    · ends by{' '}
                    {formatDateTime(
                      session.idleExpiresAt < session.absoluteExpiresAt
                        ? session.idleExpiresAt
                        : session.absoluteExpiresAt,
                    )}
                  </span>
                )}
              </td>
              {canEnd && (
                <td data-label="Action">
                  {session.status === 'open' && (
                    <form method="post" action="/console-sessions/end">
                      <input type="hidden" name="sessionId" value={session.id} />
                      <button
                        type="submit"
                        className="secondary"
                        aria-label={`End ${visibleText(nameOf(session) ?? `…${session.userId.slice(-8)}`)}’s sign-in`}
                      >
                        End
                      </button>
                    </form>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
