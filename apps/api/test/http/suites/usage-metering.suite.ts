import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@agentdesk/storage';
import { UsageMeter } from '../../../src/shared/metering/usage-meter';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issuePortalKey,
  issueUserKey,
  type IssuedKey,
} from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

const labSchema = {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  additionalProperties: false,
};

/** Every stored usage event, oldest first, with the columns the tests look at. */
async function storedEvents(test: TestApi) {
  return test.database.database.db
    .selectFrom('usage_events')
    .select([
      'source',
      'model',
      'provider',
      'api_key_id',
      'portal_id',
      'end_user_id',
      'input_tokens',
      'output_tokens',
      'status',
    ])
    .orderBy('occurred_at')
    .orderBy('id')
    .execute()
    .then((rows) =>
      rows.map((row) => ({
        ...row,
        input_tokens: Number(row.input_tokens),
        output_tokens: Number(row.output_tokens),
      })),
    );
}

/** Usage metering end to end: what each kind of model call records, once, and when it is written. */
export function describeUsageMetering(engine: Engine): void {
  describe(`usage metering (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let aliceKey: IssuedKey;
    let adminKey: IssuedKey;

    async function start(environment: Record<string, string> = {}): Promise<void> {
      test = await startTestApi(engine, environment);
      alice = await createLocalUser(test.api.repositories, 'alice');
      aliceKey = await issueUserKey(test.api.repositories, alice);
      adminKey = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'root'),
        'admin',
      );
    }
    const completion = (body: object, key = aliceKey.key, headers: Record<string, string> = {}) =>
      test.request({
        method: 'POST',
        url: '/v1/chat/completions',
        key,
        headers,
        body: { model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], ...body },
      });
    const meter = () => test.api.app.get(UsageMeter);

    describe('with the default settings', () => {
      beforeEach(async () => {
        await start();
      });
      afterEach(async () => {
        await test.close();
      });

      it('a chat completion, an agent turn and a lab run each show up once in the report', async () => {
        test.emulator.script({ kind: 'text', text: 'Hello!', usage: { inputTokens: 11, outputTokens: 2 } });
        expect((await completion({})).statusCode).toBe(200);
        test.emulator.script({ kind: 'text', text: 'Hi Alice', usage: { inputTokens: 20, outputTokens: 4 } });
        const session = await createSession(test.api.repositories, alice, 'metered');
        const turn = await test.request({
          method: 'POST',
          url: `/v1/sessions/${session.id}/messages`,
          key: aliceKey.key,
          body: { content: 'Hello' },
        });
        expect(turn.statusCode).toBe(200);
        const lab = await test.request({
          method: 'POST',
          url: '/v1/admin/structured-output/runs',
          key: adminKey.key,
          body: { name: 'metered', schema: labSchema, prompt: 'Title?', targets: [{ model: 'claude-test' }] },
        });
        expect(lab.statusCode).toBe(201);
        await meter().flush();

        expect(await storedEvents(test)).toEqual([
          expect.objectContaining({
            source: 'chat-completion',
            model: 'gpt-test',
            provider: 'openai',
            api_key_id: aliceKey.stored.id,
            portal_id: null,
            end_user_id: alice.id,
            input_tokens: 11,
            output_tokens: 2,
            status: 'ok',
          }),
          expect.objectContaining({
            source: 'agent-turn',
            model: 'gpt-test',
            api_key_id: aliceKey.stored.id,
            end_user_id: alice.id,
            input_tokens: 20,
            output_tokens: 4,
            status: 'ok',
          }),
          expect.objectContaining({
            source: 'lab-run',
            model: 'claude-test',
            provider: 'anthropic',
            api_key_id: adminKey.stored.id,
            end_user_id: adminKey.stored.ownerUserId,
            status: 'ok',
          }),
        ]);
        // Writing again (nothing buffered) adds nothing; the report sees three calls.
        await meter().flush();
        const report = await test.request({
          method: 'GET',
          url: '/v1/admin/usage?groupBy=provider',
          key: adminKey.key,
        });
        expect(report.statusCode).toBe(200);
        const totals = report.json<{ totals: { key: string; modelCalls: number }[] }>().totals;
        expect(totals.map((total) => [total.key, total.modelCalls]).sort()).toEqual([
          ['anthropic', 1],
          ['openai', 2],
        ]);
      });

      it('meters streamed and failed completions, and a trusted portal’s named end user', async () => {
        test.emulator.script({
          kind: 'text',
          text: 'streamed',
          chunkSize: 3,
          usage: { inputTokens: 7, outputTokens: 5 },
        });
        const streamed = await completion({ stream: true });
        expect(streamed.statusCode).toBe(200);
        expect(streamed.body).toContain('[DONE]');
        test.emulator.script({ kind: 'error', status: 500, message: 'down', times: 3 });
        expect((await completion({})).statusCode).toBe(502);
        const portal = await issuePortalKey(test.api.repositories, 'shop', true);
        test.emulator.script({ kind: 'text', text: 'for carol', usage: { inputTokens: 3, outputTokens: 1 } });
        expect((await completion({}, portal.key, { 'x-end-user-id': 'carol' })).statusCode).toBe(200);
        await meter().flush();

        const carol = await test.api.repositories.users.findByExternalId('shop', 'carol');
        expect(await storedEvents(test)).toEqual([
          expect.objectContaining({ input_tokens: 7, output_tokens: 5, status: 'ok', end_user_id: alice.id }),
          expect.objectContaining({
            input_tokens: 0,
            output_tokens: 0,
            status: 'failed',
            end_user_id: alice.id,
          }),
          expect.objectContaining({
            input_tokens: 3,
            status: 'ok',
            portal_id: 'shop',
            api_key_id: portal.stored.id,
            end_user_id: carol?.id,
          }),
        ]);
        expect(carol).toBeDefined();
      });

      it('an agent turn whose model call fails is metered as one failed call', async () => {
        test.emulator.script({ kind: 'error', status: 500, message: 'model exploded', times: 3 });
        const session = await createSession(test.api.repositories, alice, 'failing');
        const turn = await test.request({
          method: 'POST',
          url: `/v1/sessions/${session.id}/messages`,
          key: aliceKey.key,
          body: { content: 'Will fail' },
        });
        expect(turn.statusCode).toBe(502);
        await meter().flush();
        expect(await storedEvents(test)).toEqual([
          expect.objectContaining({ source: 'agent-turn', status: 'failed', input_tokens: 0 }),
        ]);
      });
    });

    it('buffers calls off the request path and writes them when the app closes', async () => {
      // An interval no test waits for: only the close can have written the call.
      await start({ AGENTDESK_USAGE_FLUSH_INTERVAL_MS: '60000' });
      try {
        test.emulator.script({ kind: 'text', text: 'later', usage: { inputTokens: 4, outputTokens: 4 } });
        expect((await completion({})).statusCode).toBe(200);
        expect(meter().buffered).toBe(1);
        expect(await storedEvents(test)).toEqual([]);
        await test.api.close();
        expect(await storedEvents(test)).toEqual([
          expect.objectContaining({ source: 'chat-completion', input_tokens: 4, status: 'ok' }),
        ]);
      } finally {
        // The app is closed; the database and the emulator the test made are removed here.
        await test.emulator.close();
        await test.database.cleanup();
      }
    });
  });
}
