import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { API_PROBLEM_HEADER, readApiProblem } from '../../api-status';
import { REQUEST_PATH_HEADER, safeReturnPath } from '../../auth';
import { StatusPage } from './status-page';

/** What the console says while the API is down or failing: what happened and what to do. */
export async function ApiUnavailablePage() {
  const requestHeaders = await headers();
  const problem = readApiProblem(requestHeaders.get(API_PROBLEM_HEADER));
  if (problem === undefined) notFound();
  const retry = safeReturnPath(requestHeaders.get(REQUEST_PATH_HEADER)) ?? '/sessions';
  return (
    <StatusPage title={problem.kind === 'unreachable' ? 'The API cannot be reached' : 'The API is failing'}>
      <div role="alert" className="alert">
        {problem.kind === 'unreachable' ? (
          <p>
            The console asked the AgentDesk API for this page’s data and got no answer: the API is not
            running, or the console cannot reach it (HTTP 503).
          </p>
        ) : (
          <p>
            The AgentDesk API answered with an error of its own (HTTP {problem.status}), so this page has no
            data to show (HTTP 502).
          </p>
        )}
      </div>
      <p>
        Nothing was changed. <a href={retry}>Try this page again</a> in a moment; if it keeps failing, check
        that the API is running and that the console’s <code>AGENTDESK_API_URL</code> points at it (the API’s
        own log says why it is down).
      </p>
    </StatusPage>
  );
}
