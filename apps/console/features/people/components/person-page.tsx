import type { ApiKeyJson, PageJson, PersonJson, SessionJson } from '@agentdesk/api-contract';
import { can } from '@agentdesk/authz';
import type { PageAccess } from '../../auth';
import { SessionsTable } from '../../sessions';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { formatDateTime, formatTokens } from '../../transcript';
import { singleParam, type SearchParams } from '../../url-state';
import { visibleText } from '../../visible-text';
import { CostText } from '../../cost';
import { formatCostMicros } from '../people-filters';
import { listKeysOf, listSessionsOf, readPerson } from '../server/people-api';
import { PersonKeys } from './person-keys';
import { roleLabel } from './people-table';

const day = /^\d{4}-\d{2}-\d{2}$/;

/** One person: who they are, their usage and cost, their sessions, and links to their keys, sign-ins and audit. */
export async function PersonPage({
  access,
  userId,
  searchParams,
}: {
  access: PageAccess;
  userId: string;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const from = singleParam(searchParams, 'from');
  const to = singleParam(searchParams, 'to');
  let person: PersonJson | undefined;
  let sessions: PageJson<SessionJson> | undefined;
  let keys: PageJson<ApiKeyJson> | undefined;
  let failure: unknown;
  // Keys are shown to those who may list keys (admins); the page itself needs only `users:read`.
  const mayReadKeys = can(signedIn.principal, 'api-keys:read');
  if (mayRead) {
    try {
      [person, sessions, keys] = await Promise.all([
        readPerson(signedIn.credential, userId, {
          from: from !== undefined && day.test(from) ? from : undefined,
          to: to !== undefined && day.test(to) ? to : undefined,
        }),
        listSessionsOf(signedIn.credential, userId),
        mayReadKeys ? listKeysOf(signedIn.credential, userId) : Promise.resolve(undefined),
      ]);
    } catch (error) {
      failure = error;
    }
  }
  const id = encodeURIComponent(userId);
  return (
    <ConsoleShell signedIn={signedIn} current="/users">
      <h1>{person === undefined ? 'User' : visibleText(person.displayName ?? person.externalId)}</h1>
      {!mayRead && <MissingScopeNotice access={access} readWhat="read users" />}
      {failure !== undefined && <ApiProblem error={failure} />}
      {person !== undefined && (
        <>
          <dl className="facts">
            <dt>User id</dt>
            <dd className="mono">{visibleText(person.id)}</dd>
            <dt>Email / external id</dt>
            <dd className="mono">{visibleText(person.email ?? person.externalId)}</dd>
            <dt>Portal</dt>
            <dd>{person.portalId === null ? '—' : visibleText(person.portalId)}</dd>
            <dt>Role</dt>
            <dd>{roleLabel(person)}</dd>
            <dt>Sessions</dt>
            <dd>{person.sessionCount}</dd>
            <dt>Last active</dt>
            <dd>{person.lastActiveAt === null ? 'never' : formatDateTime(person.lastActiveAt)}</dd>
            <dt>Since</dt>
            <dd>{formatDateTime(person.createdAt)}</dd>
          </dl>
          <h2>
            Usage and cost, {person.usageFrom} to {person.usageTo}
          </h2>
          <p>
            {formatTokens(person.usage.inputTokens)} tokens in, {formatTokens(person.usage.outputTokens)} out,{' '}
            {person.usage.modelCalls} model calls, cost <CostText cost={person.usage} />
            {person.usage.unpricedCalls > 0 &&
              ` (${person.usage.unpricedCalls} calls without a price${person.usage.pricedCostMicros > 0 ? `; ${formatCostMicros(person.usage.pricedCostMicros)} for the priced ones` : ''})`}
            .
          </p>
          <h2>More about this user</h2>
          <ul>
            <li>
              <a href={`/sessions?user=${id}`}>All their sessions</a>
            </li>
            <li>
              <a href={`/console-sessions?user=${id}`}>Their console sign-ins</a>
            </li>
            <li>
              <a href={`/audit?actor=${id}`}>What they did (audit)</a>
            </li>
            <li>
              <a href={`/audit?target=${id}`}>Who read or changed their data (audit)</a>
            </li>
          </ul>
        </>
      )}
      {sessions !== undefined && (
        <section aria-labelledby="person-sessions">
          <h2 id="person-sessions">Sessions</h2>
          <SessionsTable sessions={sessions.items} />
        </section>
      )}
      {keys !== undefined && (
        <section aria-labelledby="person-keys">
          <h2 id="person-keys">API keys</h2>
          <PersonKeys keys={keys.items} />
          <p>
            <a href="/keys">Manage keys</a>
          </p>
        </section>
      )}
    </ConsoleShell>
  );
}
