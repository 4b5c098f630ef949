import { MAX_SEARCH_QUERY_LENGTH, type MessageSearchHitJson, type PageJson } from '@agentdesk/api-contract';
import { requireSignIn } from '../../auth';
import { ApiProblem, ConsoleShell } from '../../shell';
import { formatDateTime } from '../../transcript';
import { visibleText } from '../../visible-text';
import { messageHref, searchHref } from '../search-links';
import { singleParam, type SearchParams } from '../../url-state';
import { searchMessages } from '../server/search-messages';

/** Full-text search over every user's message text; each result opens the message in its transcript. */
export async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const signedIn = await requireSignIn();
  const query = singleParam(searchParams, 'q');
  const cursor = singleParam(searchParams, 'cursor');
  let page: PageJson<MessageSearchHitJson> | undefined;
  let failure: unknown;
  if (query !== undefined) {
    try {
      page = await searchMessages(signedIn.credential, query, cursor);
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
      {failure !== undefined && <ApiProblem error={failure} />}
      {query === undefined && (
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
          <nav aria-label="Pages of results" className="pager">
            {cursor !== undefined && <a href={searchHref(query)}>First page</a>}
            {page.nextCursor !== null && (
              <a href={searchHref(query, page.nextCursor)} rel="next">
                Older messages
              </a>
            )}
          </nav>
        </>
      )}
    </ConsoleShell>
  );
}
