import { MAX_SEARCH_QUERY_LENGTH, type MessageSearchHitJson, type PageJson } from '@agentdesk/api-contract';
import type { PageAccess } from '../../auth';
import { ApiProblem, ConsoleShell, MissingScopeNotice } from '../../shell';
import { formatDateTime } from '../../transcript';
import { PagerNav, type SearchParams } from '../../url-state';
import { visibleText } from '../../visible-text';
import { messageHref, searchQuery } from '../search-links';
import { searchMessages } from '../server/search-messages';

/** Full-text search over every user's message text; each result opens the message in its transcript. */
export async function SearchPage({
  access,
  searchParams,
}: {
  access: PageAccess;
  searchParams: SearchParams;
}) {
  const { signedIn, mayRead } = access;
  const { filters } = searchQuery.parse(searchParams);
  const query = filters.q;
  let page: PageJson<MessageSearchHitJson> | undefined;
  let failure: unknown;
  if (mayRead && query !== undefined) {
    try {
      page = await searchMessages(signedIn.credential, query, filters.cursor);
    } catch (error) {
      failure = error;
    }
  }
  return (
    <ConsoleShell signedIn={signedIn} current="/search">
      <h1>Search messages</h1>
      <p className="muted">
        Every user’s messages containing all the words, newest first. Each search is recorded in the audit
        log.
      </p>
      {!mayRead && <MissingScopeNotice access={access} readWhat="search every user’s messages" />}
      {mayRead && (
        <form method="get" action="/search" className="filters" role="search" aria-label="Search messages">
          <div className="field grow">
            <label htmlFor="search-q">Words</label>
            <input
              id="search-q"
              name="q"
              type="search"
              defaultValue={query ?? ''}
              maxLength={MAX_SEARCH_QUERY_LENGTH}
            />
          </div>
          <div className="field actions">
            <button type="submit">Search</button>
          </div>
        </form>
      )}
      {failure !== undefined && <ApiProblem error={failure} />}
      {mayRead && query === undefined && (
        <p className="empty">Type one or more words to find the messages that contain them.</p>
      )}
      {page !== undefined && query !== undefined && (
        <>
          {page.items.length === 0 ? (
            <p className="empty">No message contains these words.</p>
          ) : (
            <ol className="search-results" aria-label="Messages found">
              {page.items.map((hit) => (
                <li key={hit.messageId} className="search-result">
                  <a href={messageHref(hit.sessionId, hit.messageId)}>
                    {hit.snippet === '' ? '(no text)' : hit.snippet}
                  </a>
                  <p className="muted">
                    {hit.role} message #{hit.seq} · user{' '}
                    <span className="mono">…{visibleText(hit.ownerUserId.slice(-8))}</span> ·{' '}
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
