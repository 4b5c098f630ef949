import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TurnLeaseSweeper } from '../../../src/agent/turn/turn-lease-sweeper';
import { createApp } from '../../../src/create-app';
import { loadConfig } from '../../../src/config/app-config';
import type { Session, User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issuePortalKey,
  issueUserKey,
  type IssuedKey,
} from '../../support/fixtures';
import { baseTestEnvironment, startTestApi, type TestApi } from '../../support/test-api';
import { emulatorEnvironment } from '../../support/provider-emulator';
import { rawHttp, rawRequest } from '../../support/raw-http';
import { sendTurnOverHttp } from '../../support/turn-over-http';
import { waitFor } from '../../support/wait-for';

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

/** `POST /v1/sessions/:id/messages`: JSON and SSE turns, failures, idempotency, conflicts, recovery. */
export function describeAgentTurns(engine: Engine): void {
  describe(`agent turns over HTTP (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let aliceKey: IssuedKey;
    let session: Session;

    beforeAll(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
    });
    afterAll(async () => {
      await test?.close();
    });
    beforeEach(async () => {
      test.emulator.reset();
      session = await createSession(test.api.repositories, alice, 'turns');
    });

    // Over a real socket (once per file): for what `inject` cannot send, such as a repeated header.
    let baseUrl: Promise<string> | undefined;
    const listening = () => (baseUrl ??= test.api.listen());

    const send = (body: unknown, headers: Record<string, string> = {}, sessionId = session.id) =>
      test.request({
        method: 'POST',
        url: `/v1/sessions/${sessionId}/messages`,
        key: aliceKey.key,
        body,
        headers,
      });

    it('answers a turn as JSON: the stored user message, the answer, usage', async () => {
      test.emulator.script({ kind: 'text', text: 'Hi Alice!', usage: { inputTokens: 9, outputTokens: 3 } });
      const response = await send({ content: 'Hello' });
      expect(response.statusCode).toBe(200);
      const turn = response.json();
      expect(turn).toMatchObject({ status: 'complete', replayed: false, text: 'Hi Alice!' });
      expect(turn.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant']);
      expect(turn.messages[1]).toMatchObject({
        usage: { input: 9, output: 3 },
        model: 'gpt-test',
        status: 'complete',
      });
      const listed = await test.request({
        method: 'GET',
        url: `/v1/sessions/${session.id}/messages`,
        key: aliceKey.key,
      });
      expect(listed.json().items).toHaveLength(2);
    });

    it('streams a turn as SSE events ending with turn-end', async () => {
      test.emulator.script({ kind: 'text', text: 'streaming works', chunkSize: 4 });
      const response = await send({ content: 'Stream it' }, { accept: 'text/event-stream' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/event-stream');
      const events = parseSse(response.body);
      expect(events[0]?.event).toBe('turn-start');
      expect(events.at(-1)?.event).toBe('turn-end');
      const text = events
        .filter((event) => event.event === 'text-delta')
        .map((event) => event.data['text'])
        .join('');
      expect(text).toBe('streaming works');
      expect(events.filter((event) => event.event === 'text-delta').length).toBeGreaterThan(1);
      expect(events.some((event) => event.event === 'usage')).toBe(true);
      // The hijacked reply is not answered a second time by Nest (no "Reply was already sent" warnings).
      expect(test.logs.text()).not.toContain('already sent');
    });

    it.each([
      ['text/event-stream;q=0', 'application/json'],
      ['application/json, text/event-stream; q=0', 'application/json'],
      ['*/*', 'application/json'],
      ['Text/Event-Stream; q=0.5', 'text/event-stream'],
    ])('answers Accept: %s with %s', async (accept, contentType) => {
      const response = await send({ content: 'Which one?' }, { accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain(contentType);
    });

    it('keeps a refusal the provider sends apart from the text (OpenAI’s) as the assistant’s words, streamed and not', async () => {
      const refusal = 'I cannot help with that.';
      test.emulator.script({ kind: 'refusal', refusal, chunkSize: 5, times: 2 });
      const plain = await send({ content: 'Something bad' });
      expect(plain.json()).toMatchObject({ status: 'complete', text: refusal });
      const streamed = await send({ content: 'Something bad' }, { accept: 'text/event-stream' });
      const events = parseSse(streamed.body);
      const deltas = events
        .filter((event) => event.event === 'text-delta')
        .map((event) => event.data['text']);
      expect(deltas.join('')).toBe(refusal);
      expect(events.at(-1)?.event).toBe('turn-end');
      const listed = await test.request({
        method: 'GET',
        url: `/v1/sessions/${session.id}/messages`,
        key: aliceKey.key,
      });
      const answers = (listed.json().items as Array<{ role: string; contentParts: unknown }>).filter(
        (message) => message.role === 'assistant',
      );
      expect(answers.map((message) => message.contentParts)).toEqual([
        [{ type: 'text', text: refusal }],
        [{ type: 'text', text: refusal }],
      ]);
    });

    it('a provider failure answers 502, and the user message and the failure are in the transcript', async () => {
      test.emulator.script({ kind: 'error', status: 500, message: 'model exploded', times: 3 });
      const response = await send({ content: 'Will fail' });
      expect(response.statusCode).toBe(502);
      expect(response.json().error).toMatchObject({
        code: 'UPSTREAM_FAILED',
        message: expect.stringContaining('model exploded'),
      });
      const messages = (
        await test.request({ method: 'GET', url: `/v1/sessions/${session.id}/messages`, key: aliceKey.key })
      ).json().items;
      expect(
        messages.map((message: { role: string; status: string }) => [message.role, message.status]),
      ).toEqual([
        ['user', 'complete'],
        ['assistant', 'failed'],
      ]);
      test.emulator.script({ kind: 'text', text: 'recovered' });
      expect((await send({ content: 'Again' })).json()).toMatchObject({
        status: 'complete',
        text: 'recovered',
      });
    });

    it('a streamed failure ends with an error event', async () => {
      test.emulator.script({ kind: 'error', status: 503, times: 3 });
      const response = await send({ content: 'x' }, { accept: 'text/event-stream' });
      const events = parseSse(response.body);
      expect(events.map((event) => event.event)).toEqual(['turn-start', 'error']);
      expect(events[1]?.data).toMatchObject({ error: { provider: 'openai', status: 503 } });
    });

    it('the same Idempotency-Key returns the same turn without running it again', async () => {
      test.emulator.script({ kind: 'text', text: 'only once' });
      const first = await send({ content: 'Charge card' }, { 'idempotency-key': 'order-77' });
      const second = await send({ content: 'Charge card' }, { 'idempotency-key': 'order-77' });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toMatchObject({ replayed: true, text: 'only once' });
      // The same answer — turn id, messages, text — but for saying that it is a replay.
      expect(second.json()).toEqual({ ...first.json(), replayed: true });
      expect(first.json().turnId).toBe(first.json().messages[0].id);
      expect(test.emulator.requests).toHaveLength(1);
    });

    describe('an Idempotency-Key reused with a different request', () => {
      const original = { content: 'Charge card 4242', responseFormat: { type: 'json_object' } };
      let key: string;
      beforeEach(() => {
        // Keys are per owner across sessions: each case gets its own.
        key = `charge-${Math.random().toString(36).slice(2)}`;
      });
      const transcriptOf = async (sessionId: string) =>
        (
          await test.request({ method: 'GET', url: `/v1/sessions/${sessionId}/messages`, key: aliceKey.key })
        ).json().items as { id: string }[];

      it.each<[string, () => Promise<{ statusCode: number; body: string }>, string]>([
        [
          'another content',
          () => send({ ...original, content: 'Charge card 9999' }, { 'idempotency-key': key }),
          'different request',
        ],
        [
          'a field left out',
          () => send({ content: original.content }, { 'idempotency-key': key }),
          'different request',
        ],
        [
          'the content as parts',
          () =>
            send(
              { ...original, content: [{ type: 'text', text: original.content }] },
              { 'idempotency-key': key },
            ),
          'different request',
        ],
        [
          'another response format',
          () => send({ ...original, responseFormat: { type: 'text' } }, { 'idempotency-key': key }),
          'different request',
        ],
        [
          'streaming instead of JSON',
          () => send(original, { 'idempotency-key': key, accept: 'text/event-stream' }),
          'different request',
        ],
        [
          'another session of the same user',
          async () =>
            send(
              original,
              { 'idempotency-key': key },
              (await createSession(test.api.repositories, alice, 'other')).id,
            ),
          'another session',
        ],
      ])(
        '%s answers 422, runs nothing, and the key still replays its own request',
        async (_name, reuse, reason) => {
          test.emulator.script({ kind: 'json', value: { charged: true } });
          const first = await send(original, { 'idempotency-key': key });
          expect(first.statusCode).toBe(200);
          const before = await transcriptOf(session.id);

          const refused = await reuse();
          expect(refused.statusCode).toBe(422);
          const error = JSON.parse(refused.body).error;
          expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
          expect(error.message).toMatch(/^header\.idempotency-key: /);
          expect(error.message).toContain(reason);
          expect(test.emulator.requests).toHaveLength(1);
          expect(await transcriptOf(session.id)).toEqual(before);

          const replayed = await send(original, { 'idempotency-key': key });
          expect(replayed.statusCode).toBe(200);
          expect(replayed.json()).toMatchObject({ replayed: true, status: 'complete' });
          expect(replayed.json().messages.map((message: { id: string }) => message.id)).toEqual(
            first.json().messages.map((message: { id: string }) => message.id),
          );
        },
      );

      it('the same request with its keys in another order is the same request: it replays', async () => {
        const schema = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] };
        const ordered = { content: 'Classify', responseFormat: { type: 'json_schema', schema } };
        test.emulator.script({ kind: 'json', value: { label: 'ham' } });
        const first = await send(ordered, { 'idempotency-key': key });
        expect(first.statusCode).toBe(200);
        const reordered = {
          responseFormat: {
            schema: { required: ['label'], properties: { label: { type: 'string' } }, type: 'object' },
            type: 'json_schema',
          },
          content: 'Classify',
        };
        const again = await send(reordered, { 'idempotency-key': key });
        expect(again.statusCode).toBe(200);
        expect(again.json()).toMatchObject({ replayed: true });
        expect(again.json().messages.map((message: { id: string }) => message.id)).toEqual(
          first.json().messages.map((message: { id: string }) => message.id),
        );
        expect(test.emulator.requests).toHaveLength(1);
      });

      it('a streamed request retried as a stream replays (as one JSON answer)', async () => {
        test.emulator.script({ kind: 'text', text: 'streamed once' });
        const first = await send(
          { content: 'Stream me' },
          { 'idempotency-key': key, accept: 'text/event-stream' },
        );
        expect(first.statusCode).toBe(200);
        const again = await send(
          { content: 'Stream me' },
          { 'idempotency-key': key, accept: 'text/event-stream' },
        );
        expect(again.statusCode).toBe(200);
        expect(again.json()).toMatchObject({ replayed: true, text: 'streamed once' });
        // The replay names the turn the stream announced, and its messages.
        const streamed = parseSse(first.body);
        const start = streamed.find((event) => event.event === 'turn-start')?.data;
        const end = streamed.find((event) => event.event === 'turn-end')?.data;
        expect(again.json().turnId).toBe(start?.['turnId']);
        expect(again.json().turnId).toBe(end?.['turnId']);
        expect(again.json().messages.map((message: { id: string }) => message.id)).toEqual(
          end?.['messageIds'],
        );
        expect(test.emulator.requests).toHaveLength(1);
      });
    });

    it('a second concurrent turn on the session gets 409', async () => {
      // Slow enough that the first turn still holds the session when the second arrives, loaded or not.
      test.emulator.script({ kind: 'text', text: 'slow answer', delayMs: 2_000 });
      const first = send({ content: 'one' });
      // The first turn holds the session's lease once its model call is out.
      await waitFor(
        () => (test.emulator.requests.length === 1 ? true : undefined),
        'the first turn’s model call',
      );
      const second = await send({ content: 'two' });
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('CONFLICT');
      expect((await first).statusCode).toBe(200);
    });

    it.each([
      [{ content: '' }, 'content'],
      [{ content: 'x', userId: 'someone-else' }, 'userId'],
      [{ content: [{ type: 'image', mediaType: 'image/png', data: '***' }] }, 'base64'],
      [{ content: 'x', responseFormat: { type: 'xml' } }, 'responseFormat'],
      // A schema that cannot be compiled would fail every answer: refused before any model call.
      [
        { content: 'x', responseFormat: { type: 'json_schema', schema: { $ref: '#/$defs/missing' } } },
        'body.responseFormat.schema: The schema could not be compiled',
      ],
      [
        {
          content: 'x',
          responseFormat: { type: 'json_schema', json_schema: { name: 's', schema: { minProperties: 'x' } } },
        },
        'body.responseFormat.json_schema.schema: The schema could not be compiled',
      ],
    ])('refuses a bad body %j with a 400 naming the problem', async (body, mentioned) => {
      const response = await send(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain(mentioned);
      expect(test.emulator.requests).toHaveLength(0);
    });

    it('answers 400 naming the field for a response schema the session’s model cannot take; no model is called, the turn is recorded as failed', async () => {
      const gemini = await createSession(test.api.repositories, alice, 'gemini');
      await test.api.repositories.sessions.update(alice.id, gemini.id, { model: 'gemini-2.5-flash' });
      // Valid JSON Schema, but Gemini takes no recursion and no unrolled level can leave it out.
      const endless = { type: 'object', properties: { child: { $ref: '#' } }, required: ['child'] };
      const response = await send(
        { content: 'x', responseFormat: { type: 'json_schema', schema: endless } },
        {},
        gemini.id,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(
          /^body\.responseFormat\.schema: The schema is recursive.*recorded as failed/,
        ),
      });
      expect(test.emulator.requests).toHaveLength(0);
      const stored = (await test.api.repositories.transcript.listMessagesForOwner(alice.id, gemini.id)).items;
      expect(stored.map((message) => [message.role, message.status, message.error?.code])).toEqual([
        ['user', 'complete', undefined],
        ['assistant', 'failed', 'invalid_schema'],
      ]);
    });

    it.each([
      ['empty', ['']],
      ['201 characters long', ['k'.repeat(201)]],
      ['holding a space', ['order 77']],
      ['holding a Latin-1 character', ['ord\u00e9r-77']],
      ['sent twice', ['order-77', 'order-78']],
      ['sent twice, the same key', ['order-77', 'order-77']],
    ])(
      'refuses an Idempotency-Key %s: a 400 naming the header, nothing stored, no model call',
      async (_case, keys) => {
        const body = JSON.stringify({ content: 'Charge card' });
        const response = await rawHttp(
          await listening(),
          rawRequest(
            `POST /v1/sessions/${session.id}/messages HTTP/1.1`,
            [
              ['Host', 'localhost'],
              ['Authorization', `Bearer ${aliceKey.key}`],
              ['Content-Type', 'application/json'],
              ['Content-Length', String(Buffer.byteLength(body))],
              ...keys.map((key): [string, string] => ['Idempotency-Key', key]),
            ],
            body,
          ),
        );
        expect(response.status, response.body).toBe(400);
        expect(response.json<{ error: { message: string } }>().error.message).toMatch(
          keys.length > 1
            ? /^header\.idempotency-key: send it once/
            : /^header\.idempotency-key: must be 1–200/,
        );
        expect(test.emulator.requests).toHaveLength(0);
        expect(
          (await test.api.repositories.transcript.listMessagesForOwner(alice.id, session.id)).items,
        ).toEqual([]);
      },
    );

    it('refuses an unknown model with 400 and an unconfigured provider with 503, before storing anything', async () => {
      const unknown = await createSession(test.api.repositories, alice, 'unknown');
      await test.api.repositories.sessions.update(alice.id, unknown.id, { model: 'mystery-9000' });
      const response = await send({ content: 'x' }, {}, unknown.id);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'UNKNOWN_MODEL',
        message: expect.stringContaining('mystery-9000'),
      });
      expect(
        (await test.api.repositories.transcript.listMessagesForOwner(alice.id, unknown.id)).items,
      ).toHaveLength(0);
    });

    it('validates structured output per message', async () => {
      test.emulator.script({ kind: 'json', value: { sentiment: 'great' } });
      const response = await send({
        content: 'How do I feel?',
        responseFormat: {
          type: 'json_schema',
          schema: {
            type: 'object',
            properties: { sentiment: { enum: ['good', 'bad'] } },
            required: ['sentiment'],
          },
        },
      });
      expect(response.json()).toMatchObject({
        json: { sentiment: 'great' },
        validation: {
          valid: false,
          errors: [expect.objectContaining({ path: '/sentiment', keyword: 'enum' })],
        },
      });
    });

    it('a portal acts for its end user; another portal’s user of the same name cannot see the session', async () => {
      const portalKey = await issuePortalKey(test.api.repositories, 'acme', true);
      const other = await issuePortalKey(test.api.repositories, 'globex', true);
      const created = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: portalKey.key,
        headers: { 'x-end-user-id': 'zoe' },
        body: {},
      });
      const sessionId = created.json().id as string;
      test.emulator.script({ kind: 'text', text: 'hello zoe' });
      const own = await test.request({
        method: 'POST',
        url: `/v1/sessions/${sessionId}/messages`,
        key: portalKey.key,
        headers: { 'x-end-user-id': 'zoe' },
        body: { content: 'hi' },
      });
      expect(own.statusCode).toBe(200);
      const foreign = await test.request({
        method: 'POST',
        url: `/v1/sessions/${sessionId}/messages`,
        key: other.key,
        headers: { 'x-end-user-id': 'zoe' },
        body: { content: 'hi' },
      });
      expect(foreign.statusCode).toBe(404);
    });

    it('a client disconnect over real HTTP stops the turn and records it as failed', async () => {
      const base = await listening();
      test.emulator.script({ kind: 'hang' });
      const turn = sendTurnOverHttp(base, session.id, aliceKey.key, 'hang up on me');
      // Hangs up while the turn waits on the model.
      await waitFor(() => (test.emulator.requests.length === 1 ? true : undefined), 'the model call');
      await turn.hangUp();
      type StoredMessage = { status: string; error: { code?: string } | null };
      const stored = async () =>
        (await test.api.repositories.transcript.listMessagesForOwner(alice.id, session.id))
          .items as StoredMessage[];
      const messages = await waitFor(
        async () => {
          const items = await stored();
          return items[1]?.status === 'failed' ? items : undefined;
        },
        'the answer to be recorded as failed',
        { state: stored },
      );
      expect(messages.map((message) => message.status)).toEqual(['complete', 'failed']);
      expect(messages[1]?.error?.code).toBe('client_disconnected');
    });
  });

  describe(`expired turn leases without a restart (${engine})`, () => {
    it('the periodic sweep fails a turn whose lease expired, logs how many, and frees the session', async () => {
      const test = await startTestApi(engine);
      try {
        const { repositories } = test.api;
        const carol = await createLocalUser(repositories, 'carol');
        const carolKey = await issueUserKey(repositories, carol);
        const [stalled, live] = [
          await createSession(repositories, carol, 'replica died'),
          await createSession(repositories, carol, 'still running'),
        ];
        // Another replica's turns: one whose process died (its lease runs out), one still renewing.
        for (const target of [stalled, live]) {
          await repositories.turnStore.acquire(carol.id, target.id, `turn-${target.id}`, 1_000);
          await repositories.turnStore.append(carol.id, target.id, {
            role: 'assistant',
            contentParts: [],
            status: 'pending',
          });
        }
        test.database.clock.advance(900);
        await repositories.turnStore.renew(live.id, `turn-${live.id}`, 1_000);
        test.database.clock.advance(200);

        await test.api.app.get(TurnLeaseSweeper).sweep();
        expect(test.logs.text()).toContain(
          'turn lease sweep: marked turns whose lease expired as interrupted',
        );
        expect(test.logs.text()).toMatch(/"interruptedTurns":1,"failedMessages":1/);
        const [interrupted] = (await repositories.transcript.listMessagesForOwner(carol.id, stalled.id))
          .items;
        expect(interrupted).toMatchObject({ status: 'failed', error: { code: 'turn_interrupted' } });
        expect((await repositories.transcript.listMessagesForOwner(carol.id, live.id)).items[0]?.status).toBe(
          'pending',
        );

        test.emulator.script({ kind: 'text', text: 'fresh start' });
        const next = await test.request({
          method: 'POST',
          url: `/v1/sessions/${stalled.id}/messages`,
          key: carolKey.key,
          body: { content: 'hello again' },
        });
        expect(next.statusCode).toBe(200);
        const busy = await test.request({
          method: 'POST',
          url: `/v1/sessions/${live.id}/messages`,
          key: carolKey.key,
          body: { content: 'not yet' },
        });
        expect(busy.statusCode).toBe(409);
      } finally {
        await test.close();
      }
    });
  });

  describe(`restart after a crash (${engine})`, () => {
    it('marks the interrupted turn failed and frees the session', async () => {
      const test = await startTestApi(engine);
      try {
        const repositories = test.api.repositories;
        const bob = await createLocalUser(repositories, 'bob');
        const bobSession = await createSession(repositories, bob, 'crashed');
        // What a crash mid-turn leaves behind: a held lease and a pending answer.
        await repositories.turnStore.acquire(
          bob.id,
          bobSession.id,
          'turn-of-dead-process',
          engine === 'sqlite' ? 60_000 : -1,
        );
        await repositories.turnStore.append(bob.id, bobSession.id, {
          role: 'user',
          contentParts: [{ type: 'text', text: 'hi' }],
        });
        await repositories.turnStore.append(bob.id, bobSession.id, {
          role: 'assistant',
          contentParts: [],
          status: 'pending',
        });
        const restarted = await createApp(
          loadConfig({ ...baseTestEnvironment, ...emulatorEnvironment(test.emulator) }),
          {
            database: test.database.database,
            clock: test.database.clock.now,
            logDestination: test.logs,
          },
        );
        try {
          const messages = (await repositories.transcript.listMessagesForOwner(bob.id, bobSession.id)).items;
          expect(messages.map((message) => message.status)).toEqual(['complete', 'failed']);
          expect(messages[1]?.error?.code).toBe('turn_interrupted');
          await repositories.turnStore.acquire(bob.id, bobSession.id, 'next-turn', 60_000);
        } finally {
          await restarted.close();
        }
      } finally {
        await test.close();
      }
    });
  });
}
