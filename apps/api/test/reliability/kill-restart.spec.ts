import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import BetterSqlite3 from 'better-sqlite3';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageJson, SessionJson } from '@agentdesk/api-contract';
import { createRepositories, migrateToLatest, openDatabase } from '@agentdesk/storage';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { emulatorEnvironment } from '../support/provider-emulator';
import { startApiProcess, stopApiProcess, waitFor, type ApiProcess } from './support/api-process';
import { textOf } from './support/turn-checks';

/**
 * `kill -9` of the real API process mid-turn (SQLite file): after a restart on the same file every
 * session reads back through the API with everything committed before the kill, the interrupted
 * turns' assistant messages are `failed` with `turn_interrupted`, and their sessions take new turns.
 */
describe('kill -9 of the API mid-turn, then a restart on the same SQLite file', () => {
  let folder: string;
  let emulator: ProviderEmulator;
  let api: ApiProcess | undefined;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentdesk-kill-'));
    emulator = await startProviderEmulator();
  });
  afterEach(async () => {
    await stopApiProcess(api, 'SIGKILL');
    await emulator.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('loses nothing committed, marks the interrupted turns failed and frees their sessions', async () => {
    const databaseFile = join(folder, 'agentdesk.db');
    const databaseUrl = `sqlite:${databaseFile}`;
    // A user and key, written before the API ever starts (the API only needs the file).
    const setup = openDatabase({ url: databaseUrl });
    await migrateToLatest(setup);
    const repositories = createRepositories(setup);
    const user = await createLocalUser(repositories, 'survivor');
    const { key } = await issueUserKey(repositories, user);
    await setup.destroy();

    const environment = { ...emulatorEnvironment(emulator), DATABASE_URL: databaseUrl };
    api = await startApiProcess(environment);
    const call = (
      base: string,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    // Three sessions: one with finished turns, two that will be mid-turn (JSON and SSE) at the kill.
    const sessionIds: string[] = [];
    for (const [label, model] of [
      ['finished', 'gpt-test'],
      ['mid-turn json', 'claude-test'],
      ['mid-turn sse', 'gemini-test'],
    ] as const) {
      const created = await call(api.url, 'POST', '/v1/sessions', { label, model });
      expect(created.status).toBe(201);
      sessionIds.push(((await created.json()) as SessionJson).id);
    }
    const [finished, midJson, midSse] = sessionIds as [string, string, string];
    emulator.script({ kind: 'text', text: 'first answer' }, { kind: 'text', text: 'second answer' });
    for (const content of ['first question', 'second question']) {
      expect((await call(api.url, 'POST', `/v1/sessions/${finished}/messages`, { content })).status).toBe(
        200,
      );
    }

    // Two turns whose model calls never answer.
    emulator.script(
      { kind: 'hang', match: { provider: 'anthropic' } },
      { kind: 'hang', match: { provider: 'gemini' } },
    );
    const inFlight = [
      call(api.url, 'POST', `/v1/sessions/${midJson}/messages`, {
        content: 'question cut by the crash (json)',
      }),
      call(
        api.url,
        'POST',
        `/v1/sessions/${midSse}/messages`,
        { content: 'question cut by the crash (sse)' },
        { accept: 'text/event-stream' },
      ),
    ].map((request) =>
      request.then(
        (response) =>
          response.text().then(
            () => 'answered' as const,
            () => 'connection lost' as const,
          ),
        () => 'connection lost' as const,
      ),
    );
    // Both pending assistant messages are committed (read-only look at the file, as another process would).
    const reader = new BetterSqlite3(databaseFile, { readonly: true, fileMustExist: true });
    try {
      await waitFor(() => {
        const row = reader
          .prepare(`SELECT count(*) AS pending FROM messages WHERE role = 'assistant' AND status = 'pending'`)
          .get() as { pending: number };
        return row.pending === 2 ? row.pending : undefined;
      }, 'two pending assistant messages');
    } finally {
      reader.close();
    }
    await waitFor(
      () =>
        emulator.requests.filter((request) => request.provider !== 'openai').length === 2 ? true : undefined,
      'both hung model calls',
    );

    const killed = once(api.child, 'exit');
    api.child.kill('SIGKILL');
    const [, signal] = (await killed) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGKILL');
    expect(await Promise.all(inFlight)).toEqual(['connection lost', 'connection lost']);

    api = await startApiProcess(environment);
    expect(api.output()).toContain('marked turns interrupted by a previous stop as failed');

    // Every session reads back.
    const listed = (await (await call(api.url, 'GET', '/v1/sessions')).json()) as { items: SessionJson[] };
    expect(listed.items.map((session) => session.id).sort()).toEqual([...sessionIds].sort());
    const transcripts = new Map<string, MessageJson[]>();
    for (const id of sessionIds) {
      const response = await call(api.url, 'GET', `/v1/sessions/${id}/messages`);
      expect(response.status).toBe(200);
      transcripts.set(id, ((await response.json()) as { items: MessageJson[] }).items);
    }
    expect(
      transcripts.get(finished)!.map((message) => [message.role, message.status, textOf(message)]),
    ).toEqual([
      ['user', 'complete', 'first question'],
      ['assistant', 'complete', 'first answer'],
      ['user', 'complete', 'second question'],
      ['assistant', 'complete', 'second answer'],
    ]);
    for (const [id, mode] of [
      [midJson, 'json'],
      [midSse, 'sse'],
    ] as const) {
      const transcript = transcripts.get(id)!;
      expect(transcript.map((message) => [message.role, message.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'failed'],
      ]);
      expect(textOf(transcript[0])).toBe(`question cut by the crash (${mode})`);
      expect(transcript[1]!.error).toMatchObject({ code: 'turn_interrupted' });
    }

    // The interrupted sessions take a new turn, and the model sees the message the crash interrupted.
    emulator.reset();
    emulator.script({ kind: 'text', text: 'back after the crash' });
    const next = await call(api.url, 'POST', `/v1/sessions/${midJson}/messages`, {
      content: 'are you back?',
    });
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ status: 'complete', text: 'back after the crash' });
    expect(JSON.stringify(emulator.lastRequest('anthropic')?.body)).toContain(
      'question cut by the crash (json)',
    );
    emulator.script({ kind: 'text', text: 'streaming again' });
    const streamed = await call(
      api.url,
      'POST',
      `/v1/sessions/${midSse}/messages`,
      { content: 'and you?' },
      { accept: 'text/event-stream' },
    );
    expect(await streamed.text()).toContain('event: turn-end');
  });
});
