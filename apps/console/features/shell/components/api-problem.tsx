import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { ApiRequestError, ApiUnavailableError } from '../../api-client';
import { REQUEST_PATH_HEADER, signInHref } from '../../auth';

/**
 * Shows why the API refused a page's data, with the API's own message (the server's words, never
 * the URL's). A refused key (revoked since sign-in) goes back to the sign-in page, which returns to
 * this page afterwards.
 */
export async function ApiProblem({ error }: { error: unknown }) {
  if (error instanceof ApiRequestError && error.status === 401)
    redirect(signInHref((await headers()).get(REQUEST_PATH_HEADER), 'expired'));
  if (error instanceof ApiRequestError)
    return (
      <p role="alert" className="alert">
        The API refused: {error.message} <span className="muted">({error.code})</span>
      </p>
    );
  if (error instanceof ApiUnavailableError)
    return (
      <p role="alert" className="alert">
        {error.message}
      </p>
    );
  throw error;
}
