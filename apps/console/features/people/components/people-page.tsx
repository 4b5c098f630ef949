import type { PageJson, PersonJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ExportLinks } from '../../exports';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { FilterForm, PagerNav, type SearchParams } from '../../url-state';
import {
  parsePeopleFilters,
  peopleListQuery,
  personRoleChoices,
  type PeopleFilters,
} from '../people-filters';
import { listPeople } from '../server/people-api';
import { PeopleTable } from './people-table';

function PeopleFilterForm({ filters }: { filters: PeopleFilters }) {
  return (
    <FilterForm
      action="/users"
      label="Find users"
      range={{ from: 'from', to: 'to', fromTitle: 'Usage from', toTitle: 'Usage to' }}
    >
      <div className="field">
        <label htmlFor="people-q">Name, email or external id starts with</label>
        <input id="people-q" name="q" type="search" defaultValue={filters.q ?? ''} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor="people-portal">Portal id</label>
        <input id="people-portal" name="portal" defaultValue={filters.portal ?? ''} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor="people-role">Role</label>
        <select id="people-role" name="role" defaultValue={filters.role ?? ''}>
          <option value="">Any</option>
          {personRoleChoices.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="people-from">Usage from</label>
        <input id="people-from" name="from" type="date" defaultValue={filters.from ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="people-to">Usage to</label>
        <input id="people-to" name="to" type="date" defaultValue={filters.to ?? ''} />
      </div>
      <div className="field actions">
        <button type="submit">Search</button>
        <a href="/users">Clear</a>
      </div>
    </FilterForm>
  );
}

/** The people directory: who uses AgentDesk, their sessions, activity, tokens and cost. */
export async function PeoplePage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const { filters, problems } = parsePeopleFilters(searchParams);
  let page: PageJson<PersonJson> | undefined;
  let failure: unknown;
  if (mayRead && problems.length === 0) {
    try {
      page = await listPeople(signedIn.credential, filters);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/users">
      <h1>Users</h1>
      <p className="muted">
        Everyone with a session or a key: AgentDesk’s own people and portals’ end users. Tokens and cost cover
        the chosen days (the last 30 by default). Listing users is recorded in the audit log.
      </p>
      {!mayRead && <MissingScopeNotice access={access} readWhat="list users" />}
      {mayRead && <PeopleFilterForm filters={filters} />}
      {problems.length > 0 && (
        <div role="alert" className="alert">
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {failure !== undefined && <ApiProblem error={failure} />}
      {page !== undefined && (
        <>
          <ExportLinks
            list="users"
            query={peopleListQuery.href(filters, { cursor: undefined }).split('?')[1] ?? ''}
          />
          <PeopleTable people={page.items} />
          <PagerNav
            label="Pages of users"
            links={peopleListQuery.pagerLinks(filters, page.nextCursor)}
            nextText="Older users"
          />
        </>
      )}
    </ConsoleShell>
  );
}
