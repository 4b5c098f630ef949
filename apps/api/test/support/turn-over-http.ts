/** A turn sent over a real socket (not injected), which the test can hang up on. */
export interface TurnOverHttp {
  /** Closes the client's side, as a browser tab or a portal that gives up does; resolves once it is closed. */
  hangUp(): Promise<void>;
}

/** `POST /v1/sessions/:id/messages` with this key and content, over real HTTP from `baseUrl`. */
export function sendTurnOverHttp(
  baseUrl: string,
  sessionId: string,
  key: string,
  content: string,
): TurnOverHttp {
  const controller = new AbortController();
  const pending = fetch(`${baseUrl}/v1/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
    signal: controller.signal,
  }).catch(() => undefined);
  return {
    async hangUp() {
      controller.abort();
      await pending;
    },
  };
}
