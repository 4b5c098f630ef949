import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startProviderEmulator,
  type ProviderEmulator,
  type RecordedRequest,
  type ScriptedReply,
} from '../src/index';
import { anthropicClient, geminiModel, openAiClient, postJson, rejectionOf, waitFor } from './helpers';

let emulator: ProviderEmulator;
afterEach(() => emulator.close());

const hello = [{ role: 'user' as const, content: 'hi' }];

describe('request recording', () => {
  it('records provider, method, path, query, headers, parsed body and time', async () => {
    emulator = await startProviderEmulator();
    const before = Date.now();
    await openAiClient(emulator).chat.completions.create({ model: 'gpt-test', messages: hello });
    await anthropicClient(emulator).messages.create({
      model: 'claude-test',
      max_tokens: 10,
      messages: hello,
    });
    await geminiModel(emulator)
      .generateContentStream('hi')
      .then((result) => result.response);

    const [openai, anthropic, gemini] = emulator.requests;
    expect(openai).toMatchObject({
      provider: 'openai',
      method: 'POST',
      path: '/v1/chat/completions',
      query: {},
      body: { model: 'gpt-test', messages: hello },
      model: 'gpt-test',
      stream: false,
    });
    expect(openai?.headers.authorization).toBe('Bearer sk-test');
    expect(openai?.receivedAt).toBeGreaterThanOrEqual(before);
    expect(anthropic).toMatchObject({ provider: 'anthropic', path: '/v1/messages', model: 'claude-test' });
    expect(gemini).toMatchObject({
      provider: 'gemini',
      path: '/v1beta/models/gemini-test:streamGenerateContent',
      query: { alt: 'sse' },
      stream: true,
    });
    expect(emulator.lastRequest()?.provider).toBe('gemini');
    expect(emulator.lastRequest('openai')).toBe(openai);
    expect(emulator.lastRequest('anthropic')?.requestId).toBe(anthropic?.requestId);
  });

  it('records rejected requests and keeps non-JSON bodies as text', async () => {
    emulator = await startProviderEmulator();
    const response = await fetch(`${emulator.openaiBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^We could not parse the JSON body/,
    );
    expect(emulator.lastRequest()?.body).toBe('{not json');
  });

  it('keeps only the newest maxRecordedRequests in order', async () => {
    emulator = await startProviderEmulator({ maxRecordedRequests: 3 });
    const client = openAiClient(emulator);
    for (const content of ['1', '2', '3', '4', '5']) {
      await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }] });
    }
    const contents = emulator.requests.map(
      (request) => (request.body as { messages: Array<{ content: string }> }).messages[0]?.content,
    );
    expect(contents).toEqual(['3', '4', '5']);
    expect(
      (emulator.lastRequest()?.body as { messages: Array<{ content: string }> }).messages[0]?.content,
    ).toBe('5');
  });

  it('reset() clears records and the queue', async () => {
    emulator = await startProviderEmulator();
    emulator.script({ kind: 'text', text: 'never used' });
    await geminiModel(emulator).generateContent('hi');
    emulator.script({ kind: 'text', text: 'dropped' });
    emulator.reset();
    expect(emulator.requests).toEqual([]);
    expect(emulator.pendingReplies).toEqual([]);
  });
});

describe('scripting', () => {
  it('matches replies by provider, model and stream, in queue order', async () => {
    emulator = await startProviderEmulator();
    emulator.script(
      { kind: 'text', text: 'for anthropic', match: { provider: 'anthropic' } },
      { kind: 'text', text: 'for gpt-other', match: { model: 'gpt-other' } },
      { kind: 'text', text: 'streamed only', match: { stream: true } },
      { kind: 'text', text: 'anyone' },
    );
    const openai = openAiClient(emulator);
    const first = await openai.chat.completions.create({ model: 'gpt-test', messages: hello });
    expect(first.choices[0]?.message.content).toBe('anyone');
    const other = await openai.chat.completions.create({ model: 'gpt-other', messages: hello });
    expect(other.choices[0]?.message.content).toBe('for gpt-other');
    const message = await anthropicClient(emulator).messages.create({
      model: 'claude-test',
      max_tokens: 10,
      messages: hello,
    });
    expect(message.content).toEqual([{ type: 'text', text: 'for anthropic' }]);
    const streamed = await openai.chat.completions
      .stream({ model: 'gpt-test', messages: hello })
      .finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe('streamed only');
    expect(emulator.pendingReplies).toEqual([]);
  });

  it('repeats a reply `times` times, or always', async () => {
    emulator = await startProviderEmulator();
    emulator.script(
      { kind: 'error', status: 500, times: 2 },
      { kind: 'text', text: 'steady', times: 'always' },
    );
    const openai = openAiClient(emulator);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(
        await rejectionOf(openai.chat.completions.create({ model: 'gpt-test', messages: hello })),
      ).toBeInstanceOf(OpenAI.InternalServerError);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const completion = await openai.chat.completions.create({ model: 'gpt-test', messages: hello });
      expect(completion.choices[0]?.message.content).toBe('steady');
    }
    expect(emulator.pendingReplies).toHaveLength(1);
  });

  it('rejects malformed replies with a readable error', async () => {
    emulator = await startProviderEmulator();
    expect(() => emulator.script({ kind: 'text' } as unknown as ScriptedReply)).toThrow(
      /Invalid scripted reply/,
    );
    expect(() => emulator.script({ kind: 'text', text: 'x', tmes: 2 } as unknown as ScriptedReply)).toThrow(
      /tmes/,
    );
    expect(() => emulator.script({ kind: 'json', value: 1, text: '1' })).toThrow(/either 'value' or 'text'/);
    expect(() => emulator.script({ kind: 'error', status: 200 })).toThrow(/status/);
  });

  it('sends extra headers with any reply', async () => {
    emulator = await startProviderEmulator();
    emulator.script({ kind: 'error', status: 500, headers: { 'x-should-retry': 'false' } });
    const error = await rejectionOf(
      openAiClient(emulator, { maxRetries: 2 }).chat.completions.create({
        model: 'gpt-test',
        messages: hello,
      }),
    );
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    expect(emulator.requests).toHaveLength(1);
  });
});

describe('control endpoints', () => {
  it('scripts replies over HTTP and lists the requests', async () => {
    emulator = await startProviderEmulator();
    const scripted = await postJson(`${emulator.url}/_emulator/script`, [
      { kind: 'text', text: 'from the control surface', match: { provider: 'openai' } },
      { kind: 'error', status: 529, match: { provider: 'anthropic' } },
    ]);
    expect(scripted.status).toBe(200);
    expect(await scripted.json()).toEqual({ queued: 2, pending: 2 });
    const pending = (await (await fetch(`${emulator.url}/_emulator/script`)).json()) as {
      pending: ScriptedReply[];
    };
    expect(pending.pending.map((reply) => reply.kind)).toEqual(['text', 'error']);

    const completion = await openAiClient(emulator).chat.completions.create({
      model: 'gpt-test',
      messages: hello,
    });
    expect(completion.choices[0]?.message.content).toBe('from the control surface');
    await rejectionOf(
      anthropicClient(emulator).messages.create({ model: 'claude-test', max_tokens: 10, messages: hello }),
    );

    const all = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
      requests: RecordedRequest[];
    };
    expect(all.requests.map((request) => request.provider)).toEqual(['openai', 'anthropic']);
    const onlyOpenAi = (await (await fetch(`${emulator.url}/_emulator/requests?provider=openai`)).json()) as {
      requests: RecordedRequest[];
    };
    expect(onlyOpenAi.requests).toHaveLength(1);
    expect(onlyOpenAi.requests[0]?.body).toEqual({ model: 'gpt-test', messages: hello });
  });

  it('accepts a single reply object and rejects invalid payloads with 400', async () => {
    emulator = await startProviderEmulator();
    expect((await postJson(`${emulator.url}/_emulator/script`, { kind: 'hang' })).status).toBe(200);
    const invalid = await postJson(`${emulator.url}/_emulator/script`, [{ kind: 'teleport' }]);
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toMatch(/Invalid scripted reply/);
    const notJson = await fetch(`${emulator.url}/_emulator/script`, { method: 'POST', body: 'nope' });
    expect(notJson.status).toBe(400);
    expect(emulator.pendingReplies).toHaveLength(1);
  });

  it('resets over HTTP, reports health, and 404s unknown routes', async () => {
    emulator = await startProviderEmulator();
    emulator.script({ kind: 'text', text: 'pending' });
    await geminiModel(emulator).generateContent('hi');
    const reset = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' });
    expect(await reset.json()).toEqual({ ok: true });
    expect(emulator.requests).toEqual([]);
    expect(emulator.pendingReplies).toEqual([]);
    expect(await (await fetch(`${emulator.url}/_emulator/health`)).json()).toEqual({ ok: true });
    expect((await fetch(`${emulator.url}/_emulator/nothing`)).status).toBe(404);
    expect((await fetch(`${emulator.url}/v2/unknown`)).status).toBe(404);
    expect(emulator.requests).toEqual([]);
  });
});

describe('lifecycle', () => {
  it('close() ends hung requests and stalled streams', async () => {
    emulator = await startProviderEmulator();
    emulator.script(
      { kind: 'hang' },
      { kind: 'text', text: 'stall here', streamFault: { kind: 'stall', afterChunks: 1 } },
    );
    const openai = openAiClient(emulator);
    const hung = rejectionOf(openai.chat.completions.create({ model: 'gpt-test', messages: hello }));
    const stream = await openai.chat.completions.create({ model: 'gpt-test', messages: hello, stream: true });
    let chunks = 0;
    const drained = rejectionOf(
      (async () => {
        for await (const _chunk of stream) {
          // the stall keeps this loop waiting until the emulator closes
          chunks += 1;
        }
      })(),
    );
    // Close once both are held open: the hung request has arrived and the stream has stalled after
    // its first chunk.
    await waitFor(
      () => (emulator.requests.length === 2 && chunks >= 1 ? true : undefined),
      'the hung request to arrive and the stream to stall after one chunk',
      { state: () => ({ requests: emulator.requests.length, chunks }) },
    );
    // A close() waiting for them would never settle (the client's timeout is minutes away): the
    // test's own timeout is the bound.
    await emulator.close();
    expect(await hung).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(await drained).toBeInstanceOf(Error);
  });

  it('close() during a delayed reply does not leave a timer writing to a dead socket', async () => {
    emulator = await startProviderEmulator();
    emulator.script({ kind: 'text', text: 'late', delayMs: 10_000 });
    const pending = rejectionOf(
      openAiClient(emulator).chat.completions.create({ model: 'gpt-test', messages: hello }),
    );
    // Close while the reply is being delayed: the request has arrived.
    await waitFor(
      () => (emulator.requests.length === 1 ? true : undefined),
      'the delayed request to reach the emulator',
      { state: () => emulator.requests },
    );
    await emulator.close();
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('binds the requested host and reports the URLs', async () => {
    emulator = await startProviderEmulator({ host: '127.0.0.1', port: 0 });
    expect(emulator.url).toBe(`http://127.0.0.1:${emulator.port}`);
    expect(emulator.openaiBaseUrl).toBe(`${emulator.url}/v1`);
    expect(emulator.anthropicBaseUrl).toBe(emulator.url);
    expect(emulator.geminiBaseUrl).toBe(emulator.url);
  });
});
