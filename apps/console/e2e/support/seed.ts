/**
 * Seeds the running API the way a portal and an admin would, over HTTP: a viewer key, a user with
 * two sessions — one whose agent turn calls a tool (scripted in the provider emulator), one whose
 * turn fails at the provider.
 */
export interface SeededData {
  viewerKey: string;
  userKey: string;
  toolSessionId: string;
  toolSessionLabel: string;
  failedSessionId: string;
  failedSessionLabel: string;
}

async function call<T>(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok && response.status !== 502 && response.status !== 504)
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function script(emulatorUrl: string, replies: unknown[]): Promise<void> {
  const response = await fetch(`${emulatorUrl}/_emulator/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  if (!response.ok) throw new Error(`scripting the emulator failed: ${await response.text()}`);
}

export async function seed(apiUrl: string, emulatorUrl: string, adminKey: string): Promise<SeededData> {
  const viewer = await call<{ key: string }>(apiUrl, adminKey, 'POST', '/v1/admin/api-keys', {
    role: 'viewer',
    label: 'QA viewer',
    externalId: 'qa-viewer',
    displayName: 'Quinn QA',
  });
  const user = await call<{ key: string }>(apiUrl, adminKey, 'POST', '/v1/admin/api-keys', {
    role: 'user',
    label: 'Alice',
    externalId: 'alice',
    displayName: 'Alice',
  });

  const toolSessionLabel = 'Alice asks for a stored result';
  const toolSession = await call<{ id: string }>(apiUrl, user.key, 'POST', '/v1/sessions', {
    label: toolSessionLabel,
    model: 'gpt-test',
  });
  await script(emulatorUrl, [
    {
      kind: 'tool-calls',
      toolCalls: [{ name: 'read_tool_result', arguments: { id: 'report-2026-01', offset: 0, limit: 100 } }],
      usage: { inputTokens: 120, outputTokens: 18 },
    },
    {
      kind: 'text',
      text: 'That stored result does not exist any more.',
      usage: { inputTokens: 180, outputTokens: 9 },
    },
  ]);
  await call(apiUrl, user.key, 'POST', `/v1/sessions/${toolSession.id}/messages`, {
    content: 'Show me the January report you stored.',
  });

  const failedSessionLabel = 'Alice hits a provider outage';
  const failedSession = await call<{ id: string }>(apiUrl, user.key, 'POST', '/v1/sessions', {
    label: failedSessionLabel,
    model: 'gpt-test',
  });
  await script(emulatorUrl, [{ kind: 'error', status: 500, message: 'model exploded', times: 3 }]);
  await call(apiUrl, user.key, 'POST', `/v1/sessions/${failedSession.id}/messages`, {
    content: 'Are you there?',
  });

  return {
    viewerKey: viewer.key,
    userKey: user.key,
    toolSessionId: toolSession.id,
    toolSessionLabel,
    failedSessionId: failedSession.id,
    failedSessionLabel,
  };
}
