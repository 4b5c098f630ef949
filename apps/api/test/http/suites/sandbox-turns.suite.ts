import { hasTruncationNotice } from '@agentdesk/compressor';
import type { Session, User } from '@agentdesk/storage';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TurnLeaseSweeper } from '../../../src/agent/turn/turn-lease-sweeper';
import { SandboxRuntime } from '../../../src/shared/sandbox-runtime/sandbox-runtime';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { sandboxTestEnvironment } from '../../support/sandbox-environment';
import { startTestApi, type TestApi } from '../../support/test-api';
import { sendTurnOverHttp } from '../../support/turn-over-http';
import { waitFor } from '../../support/wait-for';

interface MessageJson {
  role: string;
  status: string;
  toolCallId: string | null;
  contentParts: Array<{ type: string; text?: string }>;
}

interface RequestMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
}

/** An agent turn whose model (the emulator) calls the sandbox tools in the session's own container. */
export function describeSandboxTurns(engine: Engine): void {
  describe(`sandbox tools in agent turns (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let aliceKey: IssuedKey;
    let session: Session;

    beforeAll(async () => {
      test = await startTestApi(engine, {
        ...sandboxTestEnvironment('turns', engine),
        AGENTDESK_SANDBOX_WARM_POOL: '0',
        // The shortest lease, so a tool outlasts it several times over (the test clock only moves
        // when a case moves it, so the other cases never see a lease expire).
        AGENTDESK_TURN_LEASE_MS: '1000',
      });
      await test.api.app.get(SandboxRuntime).whenStarted();
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
    });
    afterAll(async () => {
      const service = test?.api.app.get(SandboxRuntime).service;
      for (const container of (await service?.listContainers()) ?? [])
        if (container.role === 'session') await service?.engine.removeContainer(container.id);
      await test?.close();
    });
    beforeEach(async () => {
      test.emulator.reset();
      session = await createSession(test.api.repositories, alice, 'sandbox');
    });

    const send = (content: string, sessionId = session.id) =>
      test.request({
        method: 'POST',
        url: `/v1/sessions/${sessionId}/messages`,
        key: aliceKey.key,
        body: { content },
      });

    const transcript = async (sessionId = session.id): Promise<MessageJson[]> => {
      const response = await test.request({
        method: 'GET',
        url: `/v1/sessions/${sessionId}/messages?limit=100`,
        key: aliceKey.key,
      });
      return response.json<{ items: MessageJson[] }>().items;
    };
    const toolText = (messages: MessageJson[], toolCallId: string): string =>
      (messages.find((message) => message.toolCallId === toolCallId)?.contentParts ?? [])
        .map((part) => part.text ?? '')
        .join('');
    const sentToModel = (toolCallId: string): string => {
      const body = test.emulator.lastRequest()?.body as { messages: RequestMessage[] };
      return body.messages.find((message) => message.tool_call_id === toolCallId)?.content ?? '';
    };

    it('offers the sandbox tools and runs write_file, list_files, read_file and run_command in the session’s sandbox', async () => {
      test.emulator.script(
        {
          kind: 'tool-calls',
          toolCalls: [
            {
              id: 'call_write',
              name: 'write_file',
              arguments: { path: 'app/main.js', content: 'console.log(6 * 7)\n' },
            },
            { id: 'call_list', name: 'list_files', arguments: { recursive: true } },
          ],
        },
        {
          kind: 'tool-calls',
          toolCalls: [
            { id: 'call_read', name: 'read_file', arguments: { path: 'app/main.js' } },
            { id: 'call_run', name: 'run_command', arguments: { command: 'node app/main.js && id -u' } },
          ],
        },
        { kind: 'text', text: 'It prints 42.' },
      );
      const response = await send('Write and run a script');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'complete' });

      const tools = (test.emulator.requests[0]?.body as { tools: Array<{ function: { name: string } }> })
        .tools;
      expect(tools.map((tool) => tool.function.name)).toEqual([
        'read_tool_result',
        'run_command',
        'read_file',
        'write_file',
        'list_files',
      ]);
      const messages = await transcript();
      expect(toolText(messages, 'call_write')).toBe('wrote 19 bytes to app/main.js');
      expect(toolText(messages, 'call_list')).toBe('dir   app/\nfile  app/main.js  (19 bytes)');
      expect(toolText(messages, 'call_read')).toBe('console.log(6 * 7)\n');
      expect(toolText(messages, 'call_run')).toMatch(/^exit code: 0 \(\d+ ms\)\n--- stdout ---\n42\n1000\n/);
      expect(sentToModel('call_run')).toContain('42\n1000\n');
    });

    it('truncates a huge output for the model and pages the stored original with read_tool_result', async () => {
      test.emulator.script(
        {
          kind: 'tool-calls',
          toolCalls: [{ id: 'call_seq', name: 'run_command', arguments: { command: 'seq 100000 199999' } }],
        },
        {
          kind: 'tool-calls',
          toolCalls: [
            {
              id: 'call_page',
              name: 'read_tool_result',
              arguments: { id: 'call_seq', offset: 350_000, limit: 70 },
            },
          ],
        },
        { kind: 'text', text: 'Read it.' },
      );
      expect((await send('Count')).json()).toMatchObject({ status: 'complete' });
      // The second model call sees the output of the first: cut to the budget, with the notice.
      const secondCall = test.emulator.requests[1]?.body as { messages: RequestMessage[] };
      const truncated =
        secondCall.messages.find((message) => message.tool_call_id === 'call_seq')?.content ?? '';
      expect(truncated.length).toBeLessThan(100_000);
      expect(hasTruncationNotice(truncated)).toBe(true);
      expect(truncated).toContain('read_tool_result');
      const page = sentToModel('call_page');
      expect(page).toMatch(/characters 350,000–350,070 of 700,\d{3}/);
      expect(page).toMatch(/1\d{5}\n1\d{5}\n/);
      // The transcript keeps a bounded copy; the whole output stays in the tool result store.
      expect(toolText(await transcript(), 'call_seq').length).toBeLessThan(100_000);
    });

    it('answers a timeout and an out-of-memory kill with error results; the turn goes on', async () => {
      test.emulator.script(
        {
          kind: 'tool-calls',
          toolCalls: [
            {
              id: 'call_slow',
              name: 'run_command',
              arguments: { command: 'echo begun; sleep 30', timeout_seconds: 1 },
            },
          ],
        },
        {
          kind: 'tool-calls',
          toolCalls: [
            {
              id: 'call_hog',
              name: 'run_command',
              arguments: { command: 'node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"' },
            },
          ],
        },
        {
          kind: 'tool-calls',
          toolCalls: [{ id: 'call_after', name: 'run_command', arguments: { command: 'echo still-here' } }],
        },
        { kind: 'text', text: 'Recovered.' },
      );
      const response = await send('Try hard things');
      expect(response.json()).toMatchObject({ status: 'complete' });
      const messages = await transcript();
      expect(toolText(messages, 'call_slow')).toContain(
        'run_command: timed out: the command ran longer than 1000 ms',
      );
      expect(toolText(messages, 'call_slow')).toContain('begun');
      expect(toolText(messages, 'call_hog')).toContain('run_command: out of memory:');
      expect(toolText(messages, 'call_hog')).toContain('exit 137');
      expect(toolText(messages, 'call_after')).toContain('still-here');
      const body = test.emulator.requests.at(-2)?.body as {
        messages: Array<RequestMessage & { role: string }>;
      };
      expect(body.messages.find((message) => message.tool_call_id === 'call_hog')?.content).toContain(
        'out of memory',
      );
    });

    it('renews the turn lease while a long tool runs: the sweep never interrupts it, and the turn goes on', async () => {
      // The command runs until the test lets it end (a file it waits for), however slow the machine.
      test.emulator.script(
        {
          kind: 'tool-calls',
          toolCalls: [
            {
              id: 'call_long',
              name: 'run_command',
              arguments: {
                command: 'touch started; until [ -e release ]; do sleep 0.1; done; echo slept',
              },
            },
          ],
        },
        { kind: 'text', text: 'Done waiting.' },
      );
      const expiresAt = async (): Promise<number | null> => {
        const row = await test.database.database.db
          .selectFrom('sessions')
          .select('active_turn_expires_at')
          .where('id', '=', session.id)
          .executeTakeFirstOrThrow();
        return row.active_turn_expires_at === null ? null : Number(row.active_turn_expires_at);
      };
      const sweeper = test.api.app.get(TurnLeaseSweeper);
      const sandbox = test.api.app.get(SandboxRuntime).service!.forSession(session.id);
      const turn = send('Wait a while');
      await waitFor(
        async () =>
          (await sandbox.exec({ command: 'test -e started && echo yes || true' })).stdout.text === 'yes\n'
            ? true
            : undefined,
        'the long command to start',
        { state: () => ({ modelRequests: test.emulator.requests.length }) },
      );
      // While the command runs, the lease's clock runs 3 leases ahead (600 ms steps, below one
      // lease each): only renewals during the tool keep the lease ahead of it. Each step waits for
      // the heartbeat (a real timer) to have renewed the lease at the clock's current time.
      const clock = test.database.clock;
      const startedAt = clock.now();
      for (let step = 0; step < 5; step += 1) {
        const renewedBy = clock.now() + 1_000;
        await waitFor(
          async () => (((await expiresAt()) ?? 0) >= renewedBy ? true : undefined),
          `the heartbeat to renew the lease (step ${step})`,
          { state: async () => ({ expiresAt: await expiresAt(), clockNow: clock.now(), renewedBy }) },
        );
        clock.advance(600);
        await sweeper.sweep();
      }
      expect(clock.now() - startedAt).toBe(3_000);
      expect(await expiresAt()).toBeGreaterThan(clock.now());
      expect(test.logs.text()).not.toContain('marked turns whose lease expired as interrupted');
      await sandbox.exec({ command: 'touch release' });

      const response = await turn;
      expect(response.json()).toMatchObject({ status: 'complete' });
      expect(toolText(await transcript(), 'call_long')).toMatch(
        /^exit code: 0 \(\d+ ms\)\n--- stdout ---\nslept\n/,
      );
      expect(await expiresAt()).toBeNull();
    });

    it('a client that goes away mid-command cancels the turn, and the command is killed with its children', async () => {
      test.emulator.script({
        kind: 'tool-calls',
        toolCalls: [
          {
            id: 'call_forever',
            name: 'run_command',
            // Its timeout (the longest allowed, 600 s) is past the test's own: only the hang-up
            // can end it while the test waits.
            arguments: { command: '(sleep 304 &); echo begun; sleep 305', timeout_seconds: 600 },
          },
        ],
      });
      const base = await test.api.listen();
      const turn = sendTurnOverHttp(base, session.id, aliceKey.key, 'Run it and hang up');
      const service = test.api.app.get(SandboxRuntime).service!;
      const processes = async () =>
        (await service.forSession(session.id).exec({ command: 'ps -o args' })).stdout.text;
      let seen = '';
      await waitFor(
        async () => (/sleep 305/.test((seen = await processes())) ? true : undefined),
        'the command to be running in the sandbox',
        { state: () => ({ processes: seen }) },
      );
      await turn.hangUp();
      // Killed by the hang-up, with its children.
      await waitFor(
        async () => (/sleep 30[45]/.test((seen = await processes())) ? undefined : true),
        'the hang-up to kill the command and its children',
        { state: () => ({ processes: seen }) },
      );
      // The turn ends once it has recorded the cancelled command: its lease is released then (the
      // tool's message does not exist, pending or not, until its result is written).
      const leaseHeld = async () =>
        (
          await test.database.database.db
            .selectFrom('sessions')
            .select('active_turn_expires_at')
            .where('id', '=', session.id)
            .executeTakeFirstOrThrow()
        ).active_turn_expires_at !== null;
      await waitFor(async () => ((await leaseHeld()) ? undefined : true), 'the turn to release its lease', {
        state: async () => ({
          transcript: (await transcript()).map((message) => [message.role, message.status]),
        }),
      });
      const messages = await transcript();
      expect(messages.some((message) => message.status === 'pending')).toBe(false);
      expect(toolText(messages, 'call_forever')).toContain('run_command: cancelled:');
      expect(toolText(messages, 'call_forever')).toContain('begun');
    });

    it('keeps one session’s files from another session, and deleting a session removes its sandbox', async () => {
      const other = await createSession(test.api.repositories, alice, 'other');
      test.emulator.script(
        {
          kind: 'tool-calls',
          toolCalls: [
            { id: 'call_secret', name: 'write_file', arguments: { path: 'secret.txt', content: 'mine' } },
          ],
        },
        { kind: 'text', text: 'Saved.' },
        {
          kind: 'tool-calls',
          toolCalls: [
            { id: 'call_peek', name: 'read_file', arguments: { path: 'secret.txt' } },
            {
              id: 'call_look',
              name: 'run_command',
              arguments: { command: 'ls -A /workspace; ls /tmp 2>&1 | head -3' },
            },
          ],
        },
        { kind: 'text', text: 'Nothing there.' },
      );
      await send('Keep a secret');
      await send('Find the secret', other.id);
      const otherMessages = await transcript(other.id);
      expect(toolText(otherMessages, 'call_peek')).toBe('read_file: secret.txt does not exist in /workspace');
      expect(toolText(otherMessages, 'call_look')).not.toContain('secret');

      const service = test.api.app.get(SandboxRuntime).service!;
      const sessionsWithSandbox = async () =>
        (await service.listContainers()).map((container) => container.sessionId).filter(Boolean);
      expect(await sessionsWithSandbox()).toEqual(expect.arrayContaining([session.id, other.id]));
      const deleted = await test.request({
        method: 'DELETE',
        url: `/v1/sessions/${session.id}`,
        key: aliceKey.key,
      });
      expect(deleted.statusCode).toBe(204);
      expect(await sessionsWithSandbox()).not.toContain(session.id);
      expect(await sessionsWithSandbox()).toContain(other.id);
    });
  });
}
