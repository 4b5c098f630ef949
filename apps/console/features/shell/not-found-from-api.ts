import { notFound } from 'next/navigation';
import { ApiRequestError, refusesTheAddress } from '../api-client';

/**
 * A page showing one thing by its id (a session, a lab run) answers 404 with the console's
 * not-found page when the API says there is no such thing (or none this person may read), and when
 * the API refuses the id in the address itself (`path.id: must be an id …`): an address that can
 * name nothing is not found either. Called before anything streams, so the status is a real 404,
 * not a 200 carrying the API's message.
 */
export function notFoundWhenApiSaysSo(error: unknown): void {
  if (!(error instanceof ApiRequestError)) return;
  if (error.status === 404 || refusesTheAddress(error)) notFound();
}
