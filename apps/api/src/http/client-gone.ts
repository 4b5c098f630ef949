import type { ServerResponse } from 'node:http';

/**
 * A signal aborted when the client goes away before its answer is complete: the response closes
 * (its socket closed under it) without having finished. Work done for the request listens to it —
 * a model call is cancelled, a stream stops writing.
 */
export function clientGoneSignal(response: ServerResponse): AbortSignal {
  const clientGone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) clientGone.abort();
  });
  return clientGone.signal;
}
