import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { sqliteTestDatabase, type TestDatabase } from '@agentdesk/storage/testing';
import { StorageErrorCode, type Session, type User } from '@agentdesk/storage';
import { ModelRouter } from '../../model-access/model-router';
import { readModelRoutingSettings } from '../../config/provider-settings';
import { ToolRegistry, type AgentTool } from '@agentdesk/agent-tools';
import { AgentTurnRunner } from './agent-turn-runner';
import type { TurnInput } from './turn-types';
import type { TurnEvent } from './turn-events';
import { defaultTurnSettings } from '../../config/turn-settings';
import { waitFor } from '../../../test/support/wait-for';

/*
 * The turn lease while a turn runs. The repositories' clock is a test clock moved by hand, so
 * "time passing beyond the lease" is exact; only the heartbeat's timer runs in real time.
 */

const leaseMs = 300;
let emulator: ProviderEmulator;
let database: TestDatabase;
let owner: User;
let session: Session;

beforeAll(async () => {
  emulator = await startProviderEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  emulator.reset();
  database = await sqliteTestDatabase();
  owner = await database.repositories.users.create({ externalId: 'alice' });
  session = await database.repositories.sessions.create({ ownerUserId: owner.id, model: 'gpt-test' });
});
afterEach(async () => {
  await database.cleanup();
});

function runnerWith(tools: AgentTool[], lease = leaseMs): AgentTurnRunner {
  const environment = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: emulator.openaiBaseUrl };
  return new AgentTurnRunner({
    repositories: database.repositories,
    router: new ModelRouter(readModelRoutingSettings(environment)),
    tools: new ToolRegistry(tools),
    settings: { ...defaultTurnSettings, summarize: false, leaseMs: lease },
  });
}

function input(content: string): TurnInput {
  return {
    ownerUserId: owner.id,
    sessionId: session.id,
    content,
    signal: new AbortController().signal,
    stream: true,
  };
}

async function leaseExpiry(): Promise<number | null> {
  const row = await database.database.db
    .selectFrom('sessions')
    .select('active_turn_expires_at')
    .where('id', '=', session.id)
    .executeTakeFirstOrThrow();
  return row.active_turn_expires_at === null ? null : Number(row.active_turn_expires_at);
}

/** Waits until `condition` holds; on the deadline the error names `what` and the state seen. */
async function waitUntil(
  condition: () => Promise<boolean>,
  what: string,
  state: () => unknown,
): Promise<void> {
  await waitFor(async () => ((await condition()) ? true : undefined), what, { state });
}

async function transcript() {
  return (await database.repositories.transcript.listMessagesForOwner(owner.id, session.id)).items;
}

describe('the turn lease while a turn runs', () => {
  it('is renewed on a timer during a tool that outlasts it, so no other turn can take the session', async () => {
    const refusals: unknown[] = [];
    const slowExport: AgentTool = {
      definition: { name: 'slow_export', parameters: { type: 'object', properties: {} } },
      async execute() {
        for (let round = 0; round < 3; round++) {
          // Several leases pass while the tool works…
          database.clock.advance(5 * leaseMs);
          // …and the heartbeat moves the lease ahead of the clock each time.
          await waitUntil(
            async () => ((await leaseExpiry()) ?? 0) > database.clock.now(),
            'the heartbeat renews the lease',
            async () => ({ leaseExpiresAt: await leaseExpiry(), clockNow: database.clock.now() }),
          );
          refusals.push(
            await database.repositories.turnStore
              .acquire(owner.id, session.id, `intruder-${round}`, leaseMs)
              .then(
                () => 'taken over',
                (error: { code?: string }) => error.code,
              ),
          );
        }
        return { content: 'exported', isError: false };
      },
    };
    emulator.script(
      { kind: 'tool-calls', toolCalls: [{ name: 'slow_export', arguments: {}, id: 'call_slow' }] },
      { kind: 'text', text: 'The export is done.' },
    );
    const result = await runnerWith([slowExport]).run(input('Export everything'), () => undefined);
    expect(refusals).toEqual(Array(3).fill(StorageErrorCode.TurnInProgress));
    expect(result.status).toBe('complete');
    expect((await transcript()).map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['tool', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(await leaseExpiry()).toBeNull();
  });

  it('a turn whose lease was taken over stops its model call and writes nothing more', async () => {
    emulator.script({
      kind: 'text',
      text: 'never finished',
      chunkSize: 3,
      streamFault: { kind: 'stall', afterChunks: 3 },
    });
    const events: TurnEvent[] = [];
    const running = runnerWith([]).run(input('Hello?'), (event) => events.push(event));
    await waitUntil(
      async () => events.some((event) => event.type === 'text-delta'),
      'the answer streams',
      () => ({ events: events.map((event) => event.type) }),
    );
    // Another replica found the lease expired (this process "stalled") and swept the turn.
    expect(await database.repositories.turnStore.recoverInterrupted({ all: true })).toEqual({
      sessions: 1,
      messages: 1,
    });
    const result = await running;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'turn_interrupted' } });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'turn_interrupted' } });
    const messages = await transcript();
    expect(messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'failed'],
    ]);
    expect(messages[1]?.error?.code).toBe('turn_interrupted');
    expect(emulator.requests).toHaveLength(1);
  });

  it('an answer that arrives after the takeover does not overwrite the interrupted message', async () => {
    emulator.script({ kind: 'text', text: 'too late', delayMs: 400 });
    // A long lease: no renewal happens during the call, so only the finish can notice.
    const running = runnerWith([], 60_000).run(input('Hello?'), () => undefined);
    await waitUntil(
      async () => emulator.requests.length === 1,
      'the model call starts',
      () => ({ requests: emulator.requests.length }),
    );
    await database.repositories.turnStore.recoverInterrupted({ all: true });
    const result = await running;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'turn_interrupted' } });
    const messages = await transcript();
    expect(messages.map((message) => message.status)).toEqual(['complete', 'failed']);
    expect(messages[1]?.contentParts).toEqual([]);
    // The session is free for the next turn.
    emulator.script({ kind: 'text', text: 'fresh answer' });
    expect((await runnerWith([]).run(input('Again'), () => undefined)).status).toBe('complete');
  });

  it('the next turn on a session whose lease expired fails the crashed turn’s pending answer first', async () => {
    const { turnStore } = database.repositories;
    await turnStore.acquire(owner.id, session.id, 'crashed-turn', leaseMs);
    await turnStore.append(owner.id, session.id, {
      role: 'user',
      contentParts: [{ type: 'text', text: 'q' }],
    });
    await turnStore.append(owner.id, session.id, { role: 'assistant', contentParts: [], status: 'pending' });
    database.clock.advance(leaseMs + 1);
    emulator.script({ kind: 'text', text: 'answered' });
    expect((await runnerWith([]).run(input('Still there?'), () => undefined)).status).toBe('complete');
    expect(
      (await transcript()).map((message) => [message.role, message.status, message.error?.code]),
    ).toEqual([
      ['user', 'complete', undefined],
      ['assistant', 'failed', 'turn_interrupted'],
      ['user', 'complete', undefined],
      ['assistant', 'complete', undefined],
    ]);
  });
});
