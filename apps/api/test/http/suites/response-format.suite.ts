import type { Session, User } from '@agentdesk/storage';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey } from '../../support/fixtures';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/*
 * One `response_format` schema (apps/api/src/http/response-format.ts) for `/v1/chat/completions`
 * (`response_format`) and the agent turn (`responseFormat`): the same table of bodies is accepted
 * or refused on both, each refusal a 400 naming the field, before any model call.
 */

const schema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

/** Formats both routes take. */
const accepted: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['text', { type: 'text' }],
  ['json_object', { type: 'json_object' }],
  ['json_schema with a name and a schema', { type: 'json_schema', json_schema: { name: 'answer', schema } }],
  [
    'json_schema with every field',
    {
      type: 'json_schema',
      json_schema: { name: 'An_answer-2', description: 'The answer', strict: true, schema },
    },
  ],
  [
    'json_schema with strict null',
    { type: 'json_schema', json_schema: { name: 'answer', strict: null, schema } },
  ],
  [
    'json_schema named with 64 characters',
    { type: 'json_schema', json_schema: { name: 'n'.repeat(64), schema } },
  ],
  [
    'json_schema without a schema (any JSON object)',
    { type: 'json_schema', json_schema: { name: 'answer' } },
  ],
];

/**
 * Formats both routes refuse, and the field each 400 names, below the format (`json_schema.name`)
 * or the format itself (`null`).
 */
const refused: ReadonlyArray<readonly [string, unknown, string | null]> = [
  ['json_schema without a name', { type: 'json_schema', json_schema: { schema } }, 'json_schema.name'],
  [
    'a name with a space',
    { type: 'json_schema', json_schema: { name: 'an answer', schema } },
    'json_schema.name',
  ],
  [
    'a name of 65 characters',
    { type: 'json_schema', json_schema: { name: 'n'.repeat(65), schema } },
    'json_schema.name',
  ],
  ['an empty name', { type: 'json_schema', json_schema: { name: '', schema } }, 'json_schema.name'],
  [
    'a description over 10,000 characters',
    { type: 'json_schema', json_schema: { name: 'answer', description: 'd'.repeat(10_001), schema } },
    'json_schema.description',
  ],
  [
    'a schema that cannot be compiled',
    { type: 'json_schema', json_schema: { name: 'answer', schema: { minProperties: 'x' } } },
    'json_schema.schema',
  ],
  [
    'an unknown field in json_schema',
    { type: 'json_schema', json_schema: { name: 'answer', schema, examples: [] } },
    'json_schema',
  ],
  ['an unknown type', { type: 'xml' }, null],
  ['json_schema without its envelope or a schema', { type: 'json_schema' }, null],
  ['not an object', 'json', null],
];

export function describeResponseFormat(engine: Engine): void {
  describe(`one response_format on /v1/chat/completions and the agent turn (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let key: string;
    let session: Session;

    beforeAll(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      key = (await issueUserKey(test.api.repositories, alice)).key;
    });
    afterAll(async () => {
      await test?.close();
    });
    beforeEach(async () => {
      test.emulator.reset();
      session = await createSession(test.api.repositories, alice, 'formats');
    });

    const chat = (format: unknown): Promise<InjectResponse> =>
      test.request({
        method: 'POST',
        url: '/v1/chat/completions',
        key,
        body: {
          model: 'gpt-test',
          messages: [{ role: 'user', content: 'Answer in JSON' }],
          response_format: format,
        },
      });
    const turn = (format: unknown): Promise<InjectResponse> =>
      test.request({
        method: 'POST',
        url: `/v1/sessions/${session.id}/messages`,
        key,
        body: { content: 'Answer in JSON', responseFormat: format },
      });
    const answerFor = (format: Record<string, unknown>) =>
      format['type'] === 'text' ? ({ kind: 'text', text: 'plain' } as const) : ({ kind: 'json' } as const);

    describe.each(accepted)('accepts %s', (_name, format) => {
      it('on /v1/chat/completions', async () => {
        test.emulator.script(answerFor(format));
        const response = await chat(format);
        expect(response.statusCode, response.body).toBe(200);
        expect(test.emulator.requests).toHaveLength(1);
      });
      it('on the agent turn', async () => {
        test.emulator.script(answerFor(format));
        const response = await turn(format);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toMatchObject({ status: 'complete' });
        expect(test.emulator.requests).toHaveLength(1);
      });
    });

    describe.each(refused)('refuses %s', (_name, format, field) => {
      it('on /v1/chat/completions, with OpenAI’s error naming the parameter', async () => {
        const response = await chat(format);
        expect(response.statusCode, response.body).toBe(400);
        const error = response.json<{ error: { param: string; type: string } }>().error;
        expect(error.type).toBe('invalid_request_error');
        expect(error.param.startsWith(field === null ? 'response_format' : `response_format.${field}`)).toBe(
          true,
        );
        expect(test.emulator.requests).toHaveLength(0);
      });
      it('on the agent turn, with a message naming the field', async () => {
        const response = await turn(format);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toMatchObject({
          code: 'VALIDATION_FAILED',
          message: expect.stringContaining(
            field === null ? 'body.responseFormat' : `body.responseFormat.${field}`,
          ),
        });
        expect(test.emulator.requests).toHaveLength(0);
      });
    });

    it('says what to fix when json_schema.name is missing, on both routes', async () => {
      const format = { type: 'json_schema', json_schema: { schema } };
      const completion = await chat(format);
      expect(completion.statusCode).toBe(400);
      expect(completion.json()).toEqual({
        error: {
          message: "Missing required parameter: 'response_format.json_schema.name'.",
          type: 'invalid_request_error',
          param: 'response_format.json_schema.name',
          code: 'missing_required_parameter',
        },
      });
      const agentTurn = await turn(format);
      expect(agentTurn.statusCode).toBe(400);
      expect(agentTurn.json().error.message).toBe(
        'body.responseFormat.json_schema.name: is required (OpenAI’s response_format requires it): 1–64 letters, digits, _ or -, e.g. "answer"',
      );
      // Nothing was stored for the refused turn.
      const stored = await test.request({ method: 'GET', url: `/v1/sessions/${session.id}/messages`, key });
      expect(stored.json().items).toHaveLength(0);
    });

    it('takes the flat json_schema shorthand on the agent turn only (it is not OpenAI’s shape)', async () => {
      const flat = { type: 'json_schema', schema };
      test.emulator.script({ kind: 'json' });
      expect((await turn(flat)).statusCode).toBe(200);
      const completion = await chat(flat);
      expect(completion.statusCode).toBe(400);
      expect(completion.json().error).toMatchObject({
        code: 'unrecognized_argument',
        param: 'response_format',
      });
    });
  });
}
