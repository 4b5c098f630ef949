import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import { formatDateTime } from '../format';
import {
  MAX_TRANSCRIPT_MESSAGES,
  readSessionTranscript,
  type SessionTranscript,
} from '../server/read-session';
import { buildTurns, transcriptTotals } from '../transcript-model';
import { TotalsPanel } from './totals-panel';
import { TurnView } from './turn-view';

/** Any user's session read like a conversation. */
export async function SessionPage({ sessionId }: { sessionId: string }) {
  const signedIn = await requireSignIn();
  let transcript: SessionTranscript | undefined;
  let failure: unknown;
  try {
    transcript = await readSessionTranscript(signedIn.apiKey, sessionId);
  } catch (error) {
    failure = error;
  }
  if (transcript === undefined)
    return (
      <ConsoleShell signedIn={signedIn} current="/sessions">
        <p>
          <a href="/sessions">← Sessions</a>
        </p>
        <h1>Session</h1>
        <ApiProblem error={failure} />
      </ConsoleShell>
    );

  const { session, messages, incomplete } = transcript;
  const turns = buildTurns(messages);
  const othersSession = session.ownerUserId !== signedIn.identity.userId;
  return (
    <ConsoleShell signedIn={signedIn} current="/sessions">
      <p>
        <a href="/sessions">← Sessions</a>
      </p>
      <h1>{session.label === '' ? 'Untitled session' : session.label}</h1>
      <dl className="session-facts">
        <div>
          <dt>User</dt>
          <dd className="mono">{session.ownerUserId}</dd>
        </div>
        <div>
          <dt>Portal</dt>
          <dd>{session.portalId ?? '—'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge badge-${session.status}`}>{session.status}</span>
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd className="mono">{session.model ?? 'default'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(session.createdAt)}</dd>
        </div>
      </dl>
      {othersSession && (
        <p className="notice" role="note">
          This session belongs to another user: opening it was recorded in the audit log under your name.
        </p>
      )}
      <TotalsPanel totals={transcriptTotals(turns)} />
      {incomplete && (
        <p className="notice" role="note">
          This transcript is longer than {MAX_TRANSCRIPT_MESSAGES.toLocaleString('en-US')} messages: only the
          first ones are shown.
        </p>
      )}
      {turns.length === 0 ? (
        <p className="empty">This session has no messages yet.</p>
      ) : (
        turns.map((turn) => <TurnView key={turn.number} turn={turn} />)
      )}
    </ConsoleShell>
  );
}
