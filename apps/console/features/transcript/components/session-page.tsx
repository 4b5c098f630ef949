import type { SessionWithMessagesJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { PersonLink } from '../../people';
import { ApiProblem, ConsoleShell, MissingScopeNotice, notFoundWhenApiSaysSo } from '../../shell';
import { visibleText } from '../../visible-text';
import { formatDateTime } from '../format';
import { checkMessagesOf } from '../server/check-message';
import { readSessionFirstPage } from '../server/read-session';
import { TranscriptView } from './transcript-view';

/** Any user's session read like a conversation. */
export async function SessionPage({ access, sessionId }: { access: PageAccess; sessionId: string }) {
  const { signedIn, mayRead } = access;
  let first: SessionWithMessagesJson | undefined;
  let failure: unknown;
  if (mayRead) {
    try {
      first = await readSessionFirstPage(signedIn.credential, sessionId);
    } catch (error) {
      notFoundWhenApiSaysSo(error);
      failure = error;
    }
  }
  if (first === undefined)
    return (
      <ConsoleShell signedIn={signedIn} current="/sessions">
        <p>
          <a href="/sessions">← Sessions</a>
        </p>
        <h1>Session</h1>
        {mayRead ? (
          <ApiProblem error={failure} />
        ) : (
          <MissingScopeNotice access={access} readWhat="read every user’s transcripts" />
        )}
      </ConsoleShell>
    );

  const { session } = first;
  const othersSession = session.ownerUserId !== signedIn.identity.userId;
  const exportPath = `/sessions/${encodeURIComponent(session.id)}/export`;
  return (
    <ConsoleShell signedIn={signedIn} current="/sessions">
      <p>
        <a href="/sessions">← Sessions</a>
      </p>
      <h1>{session.label === '' ? 'Untitled session' : visibleText(session.label)}</h1>
      <dl className="session-facts">
        <div>
          <dt>User</dt>
          <dd>
            <PersonLink id={session.ownerUserId} name={session.ownerName} />
          </dd>
        </div>
        <div>
          <dt>Portal</dt>
          <dd>{session.portalId === null ? '—' : visibleText(session.portalId)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge badge-${session.status}`}>{session.status}</span>
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd className="mono">{session.model === null ? 'default' : visibleText(session.model)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(session.createdAt)}</dd>
        </div>
      </dl>
      <p className="session-exports">
        Export the transcript:{' '}
        <a href={`${exportPath}?format=json`} download>
          JSON
        </a>{' '}
        ·{' '}
        <a href={`${exportPath}?format=markdown`} download>
          Markdown
        </a>
      </p>
      {othersSession && (
        <p className="notice" role="note">
          This session belongs to another user: opening it was recorded in the audit log under your name.
        </p>
      )}
      <TranscriptView
        sessionId={session.id}
        firstPage={checkMessagesOf(first.messages)}
        cost={{
          costMicros: session.costMicros,
          pricedCostMicros: session.pricedCostMicros,
          unpricedCalls: session.unpricedCalls,
        }}
      />
    </ConsoleShell>
  );
}
