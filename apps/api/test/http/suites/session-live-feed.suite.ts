import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Session, User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issueStaffKeys,
  issueUserKey,
  missingId,
  type IssuedKey,
} from '../../support/fixtures';
import { openFeed, type FeedClient, type FeedEvent } from '../../support/live-feed-client';
import { startTestApi, type TestApi } from '../../support/test-api';

/** A streamed turn sent by the session's owner over a real socket, which the test can hang up on. */
function sendStreamedTurn(baseUrl: string, sessionId: string, key: string, content: string) {
  const controller = new AbortController();
  const done = fetch(`${baseUrl}/v1/sessions/${sessionId}/messages`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ content }),
    signal: controller.signal,
  })
    .then((response) => response.text())
    .catch(() => undefined);
  let answered = false;
  void done.then(() => {
    answered = true;
  });
  return {
    get answered() {
      return answered;
    },
    async hangUp() {
      controller.abort();
      await done;
    },
    done,
  };
}

const isType = (type: string) => (event: FeedEvent) => event.event === type;
const streamedText = (events: readonly FeedEvent[]) =>
  events
    .filter((event) => event.event === 'text-delta')
    .map((event) => String(event.data['text']))
    .join('');

/**
 * `GET /v1/admin/sessions/:id/live`: staff follow a session's running turn as it happens — the
 * streamed text before the turn ends, tool calls, the end — scoped and audited like a transcript read.
 */
export function describeSessionLiveFeed(engine: Engine): void {
  describe(`following a session live (${engine})`, () => {
    let test: TestApi;
    let baseUrl: string;
    let alice: User;
    let aliceKey: IssuedKey;
    let viewerKey: IssuedKey;
    let adminKey: IssuedKey;
    let session: Session;
    const feeds: FeedClient[] = [];

    const follow = async (key: string, sessionId = session.id, query = '') => {
      const feed = await openFeed(baseUrl, `/v1/admin/sessions/${sessionId}/live${query}`, key);
      feeds.push(feed);
      return feed;
    };

    beforeAll(async () => {
      test = await startTestApi(engine);
      baseUrl = await test.api.listen();
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
      ({ viewerKey, adminKey } = await issueStaffKeys(test.api.repositories));
    });
    afterAll(async () => {
      await Promise.all(feeds.map((feed) => feed.close()));
      await test?.close();
    });
    beforeEach(async () => {
      test.emulator.reset();
      session = await createSession(test.api.repositories, alice, 'watched', 2);
    });

    it('refuses a caller without the transcript scope, and a request without a key, before any stream', async () => {
      const own = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions/${session.id}/live`,
        key: aliceKey.key,
      });
      expect(own.statusCode).toBe(403);
      expect(own.headers['content-type']).toContain('application/json');
      const anonymous = await test.request({ method: 'GET', url: `/v1/admin/sessions/${session.id}/live` });
      expect(anonymous.statusCode).toBe(401);
    });

    it('answers 404 as JSON for an unknown session, and 400 for a malformed id', async () => {
      const unknown = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions/${missingId}/live`,
        key: viewerKey.key,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
      const malformed = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions/not-an-id/live',
        key: viewerKey.key,
      });
      expect(malformed.statusCode).toBe(400);
    });

    it('starts with a snapshot naming the stored seq it follows on from, and writes one audit record with the reason', async () => {
      const feed = await follow(viewerKey.key, session.id, '?reason=ticket%207');
      expect(feed.status).toBe(200);
      expect(feed.contentType).toContain('text/event-stream');
      const snapshot = await feed.next(isType('snapshot'));
      expect(snapshot.data).toEqual({
        type: 'snapshot',
        sessionId: session.id,
        afterSeq: 2,
        turnId: null,
        partialAnswers: [],
      });
      const audit = await test.api.repositories.audit.list({ sessionId: session.id }, { limit: 10 });
      const records = audit.items.filter((entry) => entry.action === 'admin.session.live.read');
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ targetUserId: alice.id, reason: 'ticket 7' });
      await feed.close();
    });

    it('shows the streamed text before the turn ends, then the end once the turn stops', async () => {
      const feed = await follow(adminKey.key);
      await feed.next(isType('snapshot'));
      // The answer stalls after its first deltas: the turn cannot have ended while they are on the feed.
      test.emulator.script({
        kind: 'text',
        text: 'Looking into the routing table now',
        chunkSize: 5,
        streamFault: { kind: 'stall', afterChunks: 3 },
      });
      const turn = sendStreamedTurn(baseUrl, session.id, aliceKey.key, 'why is my route slow?');
      const start = await feed.next(isType('turn-start'));
      await feed.next((event) => event.event === 'text-delta' && streamedText(feed.events) === 'Looking in');
      expect(turn.answered).toBe(false);
      expect(feed.events.some(isType('turn-end'))).toBe(false);
      const stored = await test.api.repositories.transcript.listMessagesForAdmin(session.id, { limit: 50 });
      expect(stored.items.at(-1)?.status).toBe('pending');

      // A second reader joining now gets what it missed in its snapshot, not as a gap.
      const late = await follow(viewerKey.key);
      const lateSnapshot = await late.next(isType('snapshot'));
      expect(lateSnapshot.data).toMatchObject({
        turnId: start.data['turnId'],
        partialAnswers: [{ messageId: stored.items.at(-1)?.id, text: 'Looking in' }],
      });
      expect(lateSnapshot.data['afterSeq']).toBe(4);

      await turn.hangUp();
      const end = await feed.next(isType('turn-end'));
      expect(end.data).toMatchObject({
        turnId: start.data['turnId'],
        status: 'failed',
        error: { code: 'client_disconnected' },
      });
      expect((await late.next(isType('turn-end'))).data).toEqual(end.data);
      // The feed follows the session, not one turn: it stays open for the next.
      expect(feed.events.some(isType('dropped'))).toBe(false);
    });

    it('relays a turn with a tool call: the call, its result, each stored answer, and the end', async () => {
      const feed = await follow(adminKey.key);
      await feed.next(isType('snapshot'));
      test.emulator.script({
        kind: 'tool-calls',
        toolCalls: [{ name: 'current_time', arguments: {}, id: 'call_clock' }],
        chunkDelayMs: 5,
      });
      test.emulator.script({
        kind: 'text',
        text: 'It is late; the route is fine.',
        chunkSize: 4,
        chunkDelayMs: 5,
      });
      const turn = sendStreamedTurn(baseUrl, session.id, aliceKey.key, 'what time is it?');
      const end = await feed.next(isType('turn-end'));
      await turn.done;
      expect(end.data).toMatchObject({ status: 'complete' });
      const types = feed.events.map((event) => event.event);
      expect(types[0]).toBe('snapshot');
      expect(types).toContain('tool-call');
      expect(types.indexOf('tool-call')).toBeLessThan(types.indexOf('tool-result'));
      expect(types.lastIndexOf('text-delta')).toBeLessThan(types.lastIndexOf('message-complete'));
      expect(types.at(-1)).toBe('turn-end');
      expect(feed.events.find(isType('tool-call'))?.data).toMatchObject({
        toolCall: { id: 'call_clock', name: 'current_time' },
      });
      // No such tool here: the result says so, and the turn goes on to the answer.
      expect(feed.events.find(isType('tool-result'))?.data).toMatchObject({
        toolCallId: 'call_clock',
        isError: true,
      });
      expect(streamedText(feed.events)).toBe('It is late; the route is fine.');
      expect(feed.events.filter(isType('message-complete'))).toHaveLength(2);
    });

    it('ends a reader’s feed when the reader leaves, and a new reader follows on', async () => {
      const first = await follow(viewerKey.key);
      await first.next(isType('snapshot'));
      await first.close();
      const second = await follow(viewerKey.key);
      await second.next(isType('snapshot'));
      test.emulator.script({ kind: 'text', text: 'again', chunkSize: 2 });
      await sendStreamedTurn(baseUrl, session.id, aliceKey.key, 'once more').done;
      expect((await second.next(isType('turn-end'))).data).toMatchObject({ status: 'complete' });
      expect(streamedText(second.events)).toBe('again');
    });
  });
}
