import { createRepositories } from '@agentdesk/storage';
import { describe, expect, it } from 'vitest';
import { leaseSweepIntervalMs } from '../../src/config/turn-settings';
import type { MessageJson, SessionJson } from '@agentdesk/api-contract';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { waitFor, type ApiProcess } from './support/api-process';
import { crashReplica, useReplicasOnPostgres } from './support/replicas-on-postgres';
import { textOf } from './support/turn-checks';

/**
 * Short, so the crash-to-recovery cycle takes seconds, yet long enough that a live replica's
 * heartbeat renews it on a starved machine. At 1.5 s and load ≈ 20 on two cores, leases of the
 * living replica ran out between renewals; at 4 s, on a fresh-clone CI run where every test ran
 * eight times slower than alone, one of twenty turns starting at once still missed three renewals
 * in a row and was interrupted before the kill. The wait for it is idle time, not CPU.
 */
const leaseMs = 10_000;
const turnCount = 20;
const models = ['gpt-test', 'claude-test', 'gemini-test'] as const;

/** The sweep log lines of one process: `{ interruptedTurns, failedMessages }` each. */
function sweepsLogged(output: string): { interruptedTurns: number; failedMessages: number }[] {
  return output
    .split('\n')
    .filter((line) => line.includes('turn lease sweep: marked turns whose lease expired as interrupted'))
    .map((line) => JSON.parse(line) as { interruptedTurns: number; failedMessages: number });
}

/**
 * Three real API processes on one PostgreSQL. One of them is `kill -9`ed with 20 streamed turns in
 * flight; it is never restarted. The survivors' sweepers must mark those turns `turn_interrupted`
 * once their leases expire (and not before: the dead process renewed them while it lived), leave
 * no message `pending`, and the next turn on every session must succeed.
 */
describe('kill -9 of one of three API replicas on one PostgreSQL, without a restart', () => {
  const cluster = useReplicasOnPostgres();

  it('the surviving replicas fail the dead replica’s turns after the lease and free every session', async () => {
    const postgres = cluster.postgres();
    const emulator = cluster.emulator();
    const repositories = createRepositories(postgres.database);
    const user = await createLocalUser(repositories, 'replicated');
    const { key } = await issueUserKey(repositories, user);
    const replicas = await cluster.startReplicas(3, { AGENTDESK_TURN_LEASE_MS: String(leaseMs) });
    const [doomed, survivorB, survivorC] = replicas as [ApiProcess, ApiProcess, ApiProcess];
    const call = (base: string, method: string, path: string, body?: unknown, headers = {}) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const sessionIds: string[] = [];
    for (let index = 0; index < turnCount; index++) {
      const created = await call(doomed.url, 'POST', '/v1/sessions', {
        label: `crash ${index}`,
        model: models[index % models.length],
      });
      expect(created.status).toBe(201);
      sessionIds.push(((await created.json()) as SessionJson).id);
    }

    // Every answer streams a little, then stalls: the turns are mid-stream when the process dies.
    emulator.script({
      kind: 'text',
      text: 'an answer the crash cuts short',
      chunkSize: 4,
      streamFault: { kind: 'stall', afterChunks: 4 },
      times: turnCount,
    });
    const inFlight = sessionIds.map((id, index) =>
      call(
        doomed.url,
        'POST',
        `/v1/sessions/${id}/messages`,
        { content: `question ${index}` },
        {
          accept: 'text/event-stream',
        },
      ).then(
        (response) =>
          response.text().then(
            () => 'answered' as const,
            () => 'connection lost' as const,
          ),
        () => 'connection lost' as const,
      ),
    );
    const pendingAnswers = () =>
      postgres.database.db
        .selectFrom('messages')
        .select(['session_id', 'status'])
        .where('role', '=', 'assistant')
        .where('status', '=', 'pending')
        .execute();
    // Twenty turns starting at once on a loaded CI machine can take well over ten seconds: the
    // bound (a minute) only absorbs that; the wait ends as soon as they are all in flight.
    const answerStates = () =>
      postgres.database.db
        .selectFrom('messages')
        .select(['session_id', 'status', 'error'])
        .where('role', '=', 'assistant')
        .execute();
    await waitFor(
      async () => ((await pendingAnswers()).length === turnCount ? true : undefined),
      `${turnCount} pending answers`,
      {
        attempts: 2_400,
        state: async () => ({ answers: await answerStates(), modelCalls: emulator.requests.length }),
      },
    );
    await waitFor(
      () => (emulator.requests.length === turnCount ? true : undefined),
      `${turnCount} model calls`,
      2_400,
    );

    // While the process lives, its heartbeat keeps the leases ahead of the clock: over two lease
    // times (four sweeps by the other replicas) the sweepers interrupt nothing. The two lease times
    // are read off the leases themselves (each renewed to two leases past its first expiry), not a
    // sleep.
    const firstExpiries = await leaseExpiries();
    const twoLeasesOn = async () => {
      const now = await leaseExpiries();
      return sessionIds.every((id) => (now.get(id) ?? 0) >= firstExpiries.get(id)! + 2 * leaseMs);
    };
    await waitFor(
      async () => ((await twoLeasesOn()) ? true : undefined),
      'every lease renewed two leases on',
      {
        attempts: 2_400,
        state: async () => ({
          first: Object.fromEntries(firstExpiries),
          now: Object.fromEntries(await leaseExpiries()),
        }),
      },
    );
    expect(await pendingAnswers()).toHaveLength(turnCount);
    const renewedExpiries = await leaseExpiries();
    for (const id of sessionIds) expect(renewedExpiries.get(id)!).toBeGreaterThan(firstExpiries.get(id)!);
    expect([...sweepsLogged(survivorB.output()), ...sweepsLogged(survivorC.output())]).toEqual([]);

    expect(await crashReplica(doomed)).toBe('SIGKILL');
    const expiriesAtKill = await leaseExpiries();
    expect(await Promise.all(inFlight)).toEqual(Array(turnCount).fill('connection lost'));

    // The survivors sweep: bounded well below the old 10-minute lease (a lease plus a sweep interval
    // is what it takes; the bound here only absorbs a slow machine).
    await waitFor(
      async () => ((await pendingAnswers()).length === 0 ? true : undefined),
      'the sweepers to fail every pending answer',
      Math.ceil((leaseMs + leaseSweepIntervalMs(leaseMs) + 10_000) / 25),
    );
    expect([...(await leaseExpiries()).values()].every((expiry) => expiry === null)).toBe(true);
    // A sweep logs after it commits: its line may reach the test a moment after the rows do.
    const sweepsSoFar = () => [...sweepsLogged(survivorB.output()), ...sweepsLogged(survivorC.output())];
    const interruptedSoFar = () => sweepsSoFar().reduce((total, sweep) => total + sweep.interruptedTurns, 0);
    await waitFor(
      () => (interruptedSoFar() >= turnCount ? true : undefined),
      'the sweeps to log every interrupted turn',
    ).catch(() => undefined); // the exact count is asserted just below, with its numbers
    const sweeps = sweepsSoFar();
    // Concurrent sweeps on two replicas count each interrupted turn exactly once.
    expect(sweeps.reduce((total, sweep) => total + sweep.interruptedTurns, 0)).toBe(turnCount);
    expect(sweeps.reduce((total, sweep) => total + sweep.failedMessages, 0)).toBe(turnCount);
    const interrupted = await postgres.database.db
      .selectFrom('messages')
      .select(['session_id', 'finished_at', 'error'])
      .where('role', '=', 'assistant')
      .execute();
    expect(interrupted).toHaveLength(turnCount);
    for (const message of interrupted) {
      expect(JSON.parse(String(message.error))).toMatchObject({ code: 'turn_interrupted' });
      // Never before the lease the dead process last renewed had expired.
      expect(Number(message.finished_at)).toBeGreaterThan(expiriesAtKill.get(message.session_id)!);
    }

    // Every session takes its next turn right away, on either survivor, streamed or not.
    emulator.reset();
    emulator.script({ kind: 'text', text: 'back on another replica', times: turnCount });
    for (const [index, id] of sessionIds.entries()) {
      const replica = index % 2 === 0 ? survivorB : survivorC;
      const streamed = index % 4 < 2;
      const next = await call(
        replica.url,
        'POST',
        `/v1/sessions/${id}/messages`,
        { content: 'still there?' },
        {
          ...(streamed && { accept: 'text/event-stream' }),
        },
      );
      expect(next.status).toBe(200);
      const body = await next.text();
      if (streamed) expect(body).toContain('event: turn-end');
      else expect(JSON.parse(body)).toMatchObject({ status: 'complete', text: 'back on another replica' });
      const transcript = (await (await call(replica.url, 'GET', `/v1/sessions/${id}/messages`)).json()) as {
        items: MessageJson[];
      };
      expect(transcript.items.map((message) => [message.role, message.status, message.error?.code])).toEqual([
        ['user', 'complete', undefined],
        ['assistant', 'failed', 'turn_interrupted'],
        ['user', 'complete', undefined],
        ['assistant', 'complete', undefined],
      ]);
      expect(textOf(transcript.items[3])).toBe('back on another replica');
    }
  });

  async function leaseExpiries(): Promise<Map<string, number | null>> {
    const rows = await cluster
      .postgres()
      .database.db.selectFrom('sessions')
      .select(['id', 'active_turn_expires_at'])
      .execute();
    return new Map(
      rows.map((row) => [
        row.id,
        row.active_turn_expires_at === null ? null : Number(row.active_turn_expires_at),
      ]),
    );
  }
});
