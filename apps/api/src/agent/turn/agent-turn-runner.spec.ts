import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasTruncationNotice } from '@agentdesk/compressor';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { sqliteTestDatabase } from '@agentdesk/storage/testing';
import type { TestDatabase } from '@agentdesk/storage/testing';
import { StorageErrorCode, type Session, type User } from '@agentdesk/storage';
import { ModelRouter } from '../../model-access/model-router';
import { readModelRoutingSettings } from '../../config/provider-settings';
import { builtInTools, ToolRegistry, type AgentTool } from '@agentdesk/agent-tools';
import { AgentTurnRunner } from './agent-turn-runner';
import type { TurnInput } from './turn-types';
import type { TurnEvent } from './turn-events';
import { defaultTurnSettings } from '../../config/turn-settings';
import { waitFor } from '../../../test/support/wait-for';

const hugeLog = Array.from(
  { length: 40_000 },
  (_, line) => `2026-11-30T00:00:${String(line % 60).padStart(2, '0')} row ${line} status=ok`,
).join('\n');

const dumpTool: AgentTool = {
  definition: {
    name: 'dump_table',
    description: 'Dumps a table',
    parameters: { type: 'object', properties: { table: { type: 'string' } } },
  },
  execute: async () => ({ content: hugeLog, isError: false }),
};
const crashingTool: AgentTool = {
  definition: { name: 'explode', parameters: { type: 'object', properties: {} } },
  execute: async () => {
    throw new Error('disk on fire');
  },
};

let emulator: ProviderEmulator;
let database: TestDatabase;
let owner: User;
let session: Session;
let runner: AgentTurnRunner;

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
  session = await database.repositories.sessions.create({
    ownerUserId: owner.id,
    model: 'gpt-test',
    systemPrompt: 'Be helpful.',
  });
  const environment = {
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: emulator.openaiBaseUrl,
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: emulator.anthropicBaseUrl,
    GEMINI_API_KEY: 'k',
    GEMINI_BASE_URL: emulator.geminiBaseUrl,
  };
  runner = new AgentTurnRunner({
    repositories: database.repositories,
    router: new ModelRouter(readModelRoutingSettings(environment)),
    tools: new ToolRegistry([...builtInTools(), dumpTool, crashingTool]),
    settings: {
      ...defaultTurnSettings,
      summarize: false,
      scratchpadBudgetTokens: 2_000,
      storedToolResultTokens: 1_000,
    },
  });
});
afterEach(async () => {
  await database.cleanup();
});

function input(content: string, extra: Partial<TurnInput> = {}): TurnInput {
  return {
    ownerUserId: owner.id,
    sessionId: session.id,
    content,
    signal: new AbortController().signal,
    stream: false,
    ...extra,
  };
}

async function transcript() {
  return (await database.repositories.transcript.listMessagesForOwner(owner.id, session.id)).items;
}

describe('AgentTurnRunner', () => {
  it('stores the user message, then the answer with usage and model; session totals follow', async () => {
    emulator.script({ kind: 'text', text: 'Hello Alice', usage: { inputTokens: 11, outputTokens: 3 } });
    const result = await runner.run(input('Hi'), () => undefined);
    expect(result.status).toBe('complete');
    const messages = await transcript();
    expect(messages.map((message) => [message.role, message.status, message.contentParts])).toEqual([
      ['user', 'complete', [{ type: 'text', text: 'Hi' }]],
      ['assistant', 'complete', [{ type: 'text', text: 'Hello Alice' }]],
    ]);
    expect(messages[1]).toMatchObject({
      usage: { input: 11, output: 3, thinking: 0, cached: 0 },
      model: 'gpt-test',
    });
    expect(
      (await database.repositories.sessions.getForOwner(owner.id, session.id)).tokenTotals,
    ).toMatchObject({ input: 11, output: 3 });
    expect(emulator.lastRequest()?.body).toMatchObject({
      messages: [
        { role: 'system', content: 'Be helpful.' },
        { role: 'user', content: 'Hi' },
      ],
    });
  });

  it('runs the tool loop; a huge tool result is kept whole aside and the model gets it truncated with the notice', async () => {
    emulator.script(
      {
        kind: 'tool-calls',
        toolCalls: [{ name: 'dump_table', arguments: { table: 'logs' }, id: 'call_dump' }],
      },
      { kind: 'text', text: 'The log is long; I saw part of it.' },
    );
    const events: TurnEvent[] = [];
    const result = await runner.run(input('Summarize the logs'), (event) => events.push(event));
    expect(result.status).toBe('complete');
    const stored = await database.repositories.transcript.getToolResultForOwner(
      owner.id,
      session.id,
      'call_dump',
    );
    expect(stored.content).toBe(hugeLog);
    const messages = await transcript();
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const storedToolPart = messages[2]?.contentParts[0];
    const storedToolText = String(storedToolPart?.type === 'text' ? storedToolPart.text : undefined);
    expect(hasTruncationNotice(storedToolText)).toBe(true);
    expect(storedToolText.length).toBeLessThan(hugeLog.length / 10);
    const secondCall = emulator.lastRequest()?.body as {
      messages: Array<{ role: string; content: string; tool_call_id?: string }>;
    };
    const toolMessage = secondCall.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_dump');
    expect(hasTruncationNotice(toolMessage?.content ?? '')).toBe(true);
    expect(toolMessage?.content).toContain('call_dump');
    expect(messages[3]?.compressionEvents?.length).toBe(1);
    expect(events.map((event) => event.type)).toEqual([
      'turn-start',
      'tool-call',
      'usage',
      'tool-result',
      'compression',
      'usage',
      'turn-end',
    ]);
  });

  it('read_tool_result pages through the stored original', async () => {
    emulator.script(
      { kind: 'tool-calls', toolCalls: [{ name: 'dump_table', arguments: {}, id: 'call_dump' }] },
      {
        kind: 'tool-calls',
        toolCalls: [
          {
            name: 'read_tool_result',
            arguments: { id: 'call_dump', offset: 100, limit: 50 },
            id: 'call_read',
          },
        ],
      },
      { kind: 'text', text: 'done' },
    );
    await runner.run(input('Dig in'), () => undefined);
    const lastBody = emulator.lastRequest()?.body as {
      messages: Array<{ role: string; content: string; tool_call_id?: string }>;
    };
    const page = lastBody.messages.find((message) => message.tool_call_id === 'call_read');
    expect(page?.content).toContain(hugeLog.slice(100, 150));
  });

  it('a provider failure after retries fails the turn but keeps the user message; the session stays usable', async () => {
    emulator.script({ kind: 'error', status: 503, message: 'upstream down', times: 3 });
    const failed = await runner.run(input('First try'), () => undefined);
    expect(failed).toMatchObject({ status: 'failed', error: { provider: 'openai', status: 503 } });
    emulator.script({ kind: 'text', text: 'Back again' });
    const next = await runner.run(input('Second try'), () => undefined);
    expect(next.status).toBe('complete');
    const messages = await transcript();
    expect(messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'failed'],
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(messages[1]?.error).toMatchObject({
      message: expect.stringContaining('upstream down'),
      provider: 'openai',
    });
    // The failed answer is not shown to the model again; both user messages are.
    const body = emulator.lastRequest()?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be helpful.' },
      { role: 'user', content: 'First try' },
      { role: 'user', content: 'Second try' },
    ]);
  });

  it('a stream cut mid-way records what was produced and fails the turn', async () => {
    emulator.script({
      kind: 'text',
      text: 'abcdefghijklmnopqrstuvwxyz',
      chunkSize: 2,
      streamFault: { kind: 'cut', afterChunks: 5 },
    });
    const events: TurnEvent[] = [];
    const result = await runner.run(input('Stream please', { stream: true }), (event) => events.push(event));
    expect(result.status).toBe('failed');
    const messages = await transcript();
    const partialPart = messages[1]?.contentParts[0];
    const partial = partialPart?.type === 'text' ? partialPart.text : '';
    expect(partial.length).toBeGreaterThan(0);
    expect('abcdefghijklmnopqrstuvwxyz'.startsWith(partial)).toBe(true);
    expect(events.at(-1)?.type).toBe('error');
  });

  it('an Idempotency-Key replays the earlier turn instead of running twice', async () => {
    emulator.script({ kind: 'text', text: 'once' });
    const first = await runner.run(input('Pay invoice', { idempotencyKey: 'key-1' }), () => undefined);
    const second = await runner.run(input('Pay invoice', { idempotencyKey: 'key-1' }), () => undefined);
    expect(second).toMatchObject({ replayed: true, status: 'complete' });
    expect(second.messages.map((message) => message.id)).toEqual(first.messages.map((message) => message.id));
    expect(emulator.requests).toHaveLength(1);
  });

  it('a second concurrent turn on the session is refused', async () => {
    // Slow enough that the first turn still holds the session when the second arrives, loaded or not.
    emulator.script({ kind: 'text', text: 'slow', delayMs: 2_000 });
    const running = runner.run(input('one'), () => undefined);
    // The first turn holds the session's lease once its model call is out.
    await waitFor(() => (emulator.requests.length === 1 ? true : undefined), 'the first turn’s model call');
    await expect(runner.run(input('two'), () => undefined)).rejects.toMatchObject({
      code: StorageErrorCode.TurnInProgress,
    });
    expect((await running).status).toBe('complete');
  });

  it('a client disconnect aborts the provider call and records the turn as failed', async () => {
    emulator.script({ kind: 'hang' });
    const controller = new AbortController();
    const running = runner.run(input('Hello?', { signal: controller.signal }), () => undefined);
    // The client goes away while the provider call is out.
    await waitFor(() => (emulator.requests.length === 1 ? true : undefined), 'the provider call');
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'client_disconnected' } });
    expect((await transcript()).map((message) => message.status)).toEqual(['complete', 'failed']);
  });

  it('a crashing tool fails the turn with the tool named', async () => {
    emulator.script({ kind: 'tool-calls', toolCalls: [{ name: 'explode', arguments: {}, id: 'call_x' }] });
    const result = await runner.run(input('Do it'), () => undefined);
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'tool_failed', message: 'Tool explode failed: disk on fire' },
    });
  });

  it('continues a session on another provider: the history with tool calls converts', async () => {
    emulator.script(
      { kind: 'tool-calls', toolCalls: [{ name: 'dump_table', arguments: {}, id: 'call_1' }] },
      { kind: 'text', text: 'first answer' },
    );
    await runner.run(input('Start on OpenAI'), () => undefined);
    for (const model of ['claude-test', 'gemini-test']) {
      await database.repositories.sessions.update(owner.id, session.id, { model });
      emulator.script({ kind: 'text', text: `answer from ${model}` });
      const result = await runner.run(input(`Continue on ${model}`), () => undefined);
      expect(result.status).toBe('complete');
      expect(result.messages.at(-1)?.contentParts).toEqual([{ type: 'text', text: `answer from ${model}` }]);
    }
  });

  it('returns validated JSON when the message asks for a response format', async () => {
    emulator.script({ kind: 'json' });
    const result = await runner.run(
      input('Classify', {
        responseFormat: {
          type: 'json_schema',
          schema: { type: 'object', properties: { label: { enum: ['spam', 'ham'] } }, required: ['label'] },
        },
      }),
      () => undefined,
    );
    expect(result.validation).toEqual({ valid: true, errors: [] });
    expect(['spam', 'ham']).toContain((result.json as { label: string }).label);
  });
});
