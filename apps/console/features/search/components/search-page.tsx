import { MAX_SEARCH_QUERY_LENGTH, type MessageSearchPageJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { PersonLink } from '../../people';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { formatDateTime } from '../../transcript';
import { DatePresets, FilterForm, PagerNav, type SearchParams } from '../../url-state';
import {
  messageHref,
  parseSearchFilters,
  searchQuery,
  searchRangeTitles,
  searchRoles,
  snippetPieces,
  type SearchFilters,
} from '../search-links';
import { searchMessages } from '../server/search-messages';

/** A snippet with the words found marked: the text is rendered as text, the marks as `<mark>`. */
function Snippet({
  snippet,
  highlights,
}: Pick<MessageSearchPageJson['items'][number], 'snippet' | 'highlights'>) {
  if (snippet === '') return <>(no text)</>;
  return (
    <>
      {snippetPieces(snippet, highlights).map((piece, index) =>
        piece.found ? <mark key={index}>{piece.text}</mark> : <span key={index}>{piece.text}</span>,
      )}
    </>
  );
}

function SearchForm({ filters }: { filters: SearchFilters }) {
  return (
    <>
      <FilterForm
        action="/search"
        label="Search messages"
        range={{ from: 'from', to: 'to', fromTitle: searchRangeTitles.from, toTitle: searchRangeTitles.to }}
      >
        <div className="field grow" role="search">
          <label htmlFor="search-q">Words</label>
          <input
            id="search-q"
            name="q"
            type="search"
            defaultValue={filters.q ?? ''}
            maxLength={MAX_SEARCH_QUERY_LENGTH}
          />
        </div>
        <div className="field">
          <label htmlFor="search-user">User id</label>
          <input id="search-user" name="user" defaultValue={filters.user ?? ''} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="search-role">Role</label>
          <select id="search-role" name="role" defaultValue={filters.role ?? ''}>
            <option value="">Any</option>
            {searchRoles.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="search-model">Model</label>
          <input id="search-model" name="model" defaultValue={filters.model ?? ''} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="search-from">From</label>
          <input id="search-from" name="from" type="date" defaultValue={filters.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="search-to">To</label>
          <input id="search-to" name="to" type="date" defaultValue={filters.to ?? ''} />
        </div>
        <div className="field actions">
          <button type="submit">Search</button>
        </div>
      </FilterForm>
      <DatePresets
        hrefFor={(preset) =>
          searchQuery.href(filters, { from: preset.from, to: preset.to, cursor: undefined })
        }
      />
    </>
  );
}

/**
 * Full-text search over every user's message text: words found by their beginning, marked in each
 * result, narrowed by person, role, model and dates; each result opens the message in its transcript.
 */
export async function SearchPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const { filters, problems } = parseSearchFilters(searchParams);
  const query = filters.q;
  let page: MessageSearchPageJson | undefined;
  let failure: unknown;
  if (mayRead && query !== undefined && problems.length === 0) {
    try {
      page = await searchMessages(signedIn.credential, { ...filters, q: query });
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/search">
      <h1>Search messages</h1>
      <p className="muted">
        Every user’s messages containing all the words, newest first; the last word, of three letters or more,
        also finds the words it begins (“rout” finds “route”). Each search is recorded in the audit log.
      </p>
      {!mayRead && <MissingScopeNotice access={access} readWhat="search every user’s messages" />}
      {mayRead && <SearchForm filters={filters} />}
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
      {mayRead && query === undefined && (
        <p className="empty">Type one or more words to find the messages that contain them.</p>
      )}
      {page !== undefined && query !== undefined && (
        <>
          {page.ignoredWords.length > 0 && (
            <p role="note" className="notice">
              Searched for the first {page.words.length} different words of the query;{' '}
              {page.ignoredWords.length.toLocaleString('en-US')} more were left out so the search stays fast.
            </p>
          )}
          {page.items.length === 0 ? (
            <p className="empty">No message contains these words.</p>
          ) : (
            <ol className="search-results" aria-label="Messages found">
              {page.items.map((hit) => (
                <li key={hit.messageId} className="search-result">
                  <a href={messageHref(hit.sessionId, hit.messageId)}>
                    <Snippet snippet={hit.snippet} highlights={hit.highlights} />
                  </a>
                  <p className="muted">
                    {hit.role} message #{hit.seq} · <PersonLink id={hit.ownerUserId} name={hit.ownerName} /> ·{' '}
                    <time dateTime={hit.createdAt}>{formatDateTime(hit.createdAt)}</time>
                  </p>
                </li>
              ))}
            </ol>
          )}
          <PagerNav
            label="Pages of results"
            links={searchQuery.pagerLinks(filters, page.nextCursor)}
            nextText="Older messages"
          />
        </>
      )}
    </ConsoleShell>
  );
}
