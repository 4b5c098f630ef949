import { randomBytes } from 'node:crypto';
import type { Session, User } from '@agentdesk/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config';
import { createApp, type AgentDeskApi } from '../../src/create-app';
import {
  createLocalUser,
  createSession,
  issueStaffKeys,
  issueUserKey,
  type IssuedKey,
} from '../support/fixtures';
import { openFeed, type FeedEvent } from '../support/live-feed-client';
import { LogCapture } from '../support/log-capture';
import { emulatorEnvironment } from '../support/provider-emulator';
import { baseTestEnvironment, startTestApi, type TestApi } from '../support/test-api';
import { deleteRedisKeys, testRedisUrl } from './support/redis';

const isType = (type: string) => (event: FeedEvent) => event.event === type;

/**
 * Two API replicas on one PostgreSQL database and one Redis: an admin following a session on one
 * replica sees a turn that runs on the other as it happens, through the session's Redis channel.
 */
describe('a live session feed across two replicas', () => {
  const redisKeyPrefix = `agentdesk-test-${randomBytes(6).toString('hex')}`;
  const redisEnvironment = { AGENTDESK_REDIS_URL: testRedisUrl, AGENTDESK_REDIS_KEY_PREFIX: redisKeyPrefix };
  let runner: TestApi;
  let follower: AgentDeskApi;
  let runnerUrl: string;
  let followerUrl: string;
  let alice: User;
  let aliceKey: IssuedKey;
  let adminKey: IssuedKey;
  let session: Session;

  beforeAll(async () => {
    runner = await startTestApi('postgres', redisEnvironment);
    follower = await createApp(
      loadConfig({ ...baseTestEnvironment, ...emulatorEnvironment(runner.emulator), ...redisEnvironment }),
      {
        database: runner.database.database,
        clock: runner.database.clock.now,
        logDestination: new LogCapture(),
      },
    );
    runnerUrl = await runner.api.listen();
    followerUrl = await follower.listen();
    alice = await createLocalUser(runner.api.repositories, 'alice');
    aliceKey = await issueUserKey(runner.api.repositories, alice);
    ({ adminKey } = await issueStaffKeys(runner.api.repositories));
    session = await createSession(runner.api.repositories, alice, 'watched from elsewhere');
  }, 300_000);
  afterAll(async () => {
    await follower?.close();
    await runner?.close();
    await deleteRedisKeys(redisKeyPrefix);
  });

  it('shows the text of a turn running on the other replica before that turn ends, then its end', async () => {
    const feed = await openFeed(followerUrl, `/v1/admin/sessions/${session.id}/live`, adminKey.key);
    expect((await feed.next(isType('snapshot'))).data).toMatchObject({ afterSeq: 0, partialAnswers: [] });
    runner.emulator.script({
      kind: 'text',
      text: 'Replicas agree on this',
      chunkSize: 4,
      streamFault: { kind: 'stall', afterChunks: 3 },
    });
    const controller = new AbortController();
    const turn = fetch(`${runnerUrl}/v1/sessions/${session.id}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${aliceKey.key}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ content: 'do the replicas agree?' }),
      signal: controller.signal,
    })
      .then((response) => response.text())
      .catch(() => undefined);
    await feed.next(isType('turn-start'));
    // The stalled answer cannot end the turn: these deltas came while it ran, from the other process.
    await feed.next(
      () =>
        feed.events
          .filter(isType('text-delta'))
          .map((event) => String(event.data['text']))
          .join('') === 'Replicas',
    );
    expect(feed.events.some(isType('turn-end'))).toBe(false);
    controller.abort();
    await turn;
    expect((await feed.next(isType('turn-end'))).data).toMatchObject({ status: 'failed' });
    await feed.close();
  });
});
