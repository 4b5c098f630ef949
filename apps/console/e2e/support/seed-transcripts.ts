import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SeedDatabaseOutput } from './seed-database';

/** What the transcript scenarios need: a session whose turn compressed a huge result, and a 2,000-message one. */
export interface SeededTranscripts {
  /** The key of Bob, the user who owns these sessions (the live-turn scenario sends his messages). */
  userKey: string;
  compressedSessionId: string;
  compressedSessionLabel: string;
  longSessionId: string;
  longSessionLabel: string;
  longSessionMessageIds: string[];
}

/** The huge stored result the agent is scripted to read (an id `read_tool_result` accepts). */
const REPORT_ID = 'report-2026-02';
/** The page the agent asks for: `read_tool_result`'s largest, far over a 256-token scratchpad budget. */
const REPORT_PAGE_CHARACTERS = 16_000;
export const LONG_SESSION_MESSAGES = 2_000;

async function call<T>(
  apiUrl: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function scriptEmulator(emulatorUrl: string, replies: unknown[]): Promise<void> {
  const response = await fetch(`${emulatorUrl}/_emulator/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  if (!response.ok) throw new Error(`scripting the emulator failed: ${await response.text()}`);
}

/**
 * Seeds the transcript scenarios for Bob (before the shared seed, so its sessions stay the newest): sessions over HTTP as a user would make them, the bulk
 * (2,000 messages, a 150 KB stored report) through the storage library in a child process, then one
 * real agent turn that reads a page of the report — more than the scratchpad budget, so the next
 * model call compresses it (truncation with an INCOMPLETE notice).
 */
export async function seedTranscripts(options: {
  apiUrl: string;
  emulatorUrl: string;
  adminKey: string;
  databaseUrl: string;
  tsx: string;
  seedScript: string;
  cwd: string;
}): Promise<SeededTranscripts> {
  const { apiUrl, emulatorUrl } = options;
  const { key: userKey } = await call<{ key: string }>(
    apiUrl,
    options.adminKey,
    'POST',
    '/v1/admin/api-keys',
    {
      role: 'user',
      label: 'Bob',
      externalId: 'bob',
      displayName: 'Bob',
    },
  );
  const me = await call<{ user: { id: string } }>(apiUrl, userKey, 'GET', '/v1/me');
  const compressedSessionLabel = 'Bob reads a huge stored report';
  const compressed = await call<{ id: string }>(apiUrl, userKey, 'POST', '/v1/sessions', {
    label: compressedSessionLabel,
    model: 'gpt-test',
  });
  const longSessionLabel = 'Bob and two thousand messages';
  const long = await call<{ id: string }>(apiUrl, userKey, 'POST', '/v1/sessions', {
    label: longSessionLabel,
    model: 'gpt-test',
  });

  const { stdout } = await promisify(execFile)(
    options.tsx,
    [
      options.seedScript,
      JSON.stringify({
        databaseUrl: options.databaseUrl,
        ownerUserId: me.user.id,
        longSessionId: long.id,
        longSessionMessages: LONG_SESSION_MESSAGES,
        reportSessionId: compressed.id,
        reportId: REPORT_ID,
        reportLines: 3_000,
      }),
    ],
    { cwd: options.cwd, maxBuffer: 16 * 1024 * 1024 },
  );
  const written = JSON.parse(stdout) as SeedDatabaseOutput;

  await scriptEmulator(emulatorUrl, [
    {
      kind: 'tool-calls',
      toolCalls: [
        { name: 'read_tool_result', arguments: { id: REPORT_ID, offset: 0, limit: REPORT_PAGE_CHARACTERS } },
      ],
      usage: { inputTokens: 220, outputTokens: 24 },
    },
    {
      kind: 'text',
      text: 'The first invoices of the February report are listed; the rest was cut to fit.',
      usage: { inputTokens: 310, outputTokens: 21 },
    },
  ]);
  await call(apiUrl, userKey, 'POST', `/v1/sessions/${compressed.id}/messages`, {
    content: 'Read the February report you stored and list its invoices.',
  });

  return {
    userKey,
    compressedSessionId: compressed.id,
    compressedSessionLabel,
    longSessionId: long.id,
    longSessionLabel,
    longSessionMessageIds: written.longSessionMessageIds,
  };
}
