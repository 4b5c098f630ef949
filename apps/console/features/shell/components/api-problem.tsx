import { redirect } from 'next/navigation';
import { ApiRequestError, ApiUnavailableError } from '../../api-client';

/**
 * Shows why the API refused a page's data, with the API's own message. A refused key (revoked
 * since sign-in) goes back to the sign-in page.
 */
export function ApiProblem({ error }: { error: unknown }) {
  if (error instanceof ApiRequestError && error.status === 401) redirect('/sign-in?error=expired');
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
