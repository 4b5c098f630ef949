import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import type { ChatMessage, ProviderName, SupportedClient } from '@agentdesk/providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadCompressor } from '../compressor/scratchpad-compressor';
import { InMemoryToolResultStore } from '../store/tool-result-store';
import { callAndResult, logLines, pairingProblems } from '../test-support/scratchpad-fixtures';
import { createTokenCounter } from '../tokens/count-tokens';
import { createModelSummarizer } from './model-summarizer';

const models: Record<ProviderName, string> = {
  openai: 'gpt-test',
  anthropic: 'claude-test',
  gemini: 'gemini-test',
};
const fastRetry = { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 5, maxTotalWaitMs: 500 };

let emulator: ProviderEmulator;
let clients: Record<ProviderName, SupportedClient>;

beforeAll(async () => {
  emulator = await startProviderEmulator();
  clients = {
    openai: new OpenAI({ apiKey: 'sk-test', baseURL: emulator.openaiBaseUrl }),
    anthropic: new Anthropic({ apiKey: 'sk-ant-test', baseURL: emulator.anthropicBaseUrl }),
    gemini: new GoogleGenerativeAI('gemini-key').getGenerativeModel(
      { model: models.gemini },
      { baseUrl: emulator.geminiBaseUrl, apiVersion: 'v1beta' },
    ),
  };
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => emulator.reset());

const older: ChatMessage[] = [
  ...callAndResult('c1', 'sql', logLines(3000, 'orders'), '{"query":"select * from orders"}'),
  ...callAndResult('c2', 'search', 'Customer 42 is ACME Corp, based in Lyon.'),
];
const newest = callAndResult('c3', 'sql', 'count=12');

/** The output-token cap of a request, in each provider's field. */
function maxOutputTokens(provider: ProviderName, body: unknown): unknown {
  const fields = body as {
    max_tokens?: number;
    max_completion_tokens?: number;
    generationConfig?: { maxOutputTokens?: number };
  };
  if (provider === 'gemini') return fields.generationConfig?.maxOutputTokens;
  return fields.max_completion_tokens ?? fields.max_tokens;
}

/** The text the summarizing model was sent, whatever the provider's body shape. */
function sentText(body: unknown): string {
  return JSON.stringify(body);
}

describe.each(['openai', 'anthropic', 'gemini'] as const)('createModelSummarizer over %s', (provider) => {
  it('summarizes older entries through executeChatCompletion and the compressor uses the answer', async () => {
    emulator.script({
      kind: 'text',
      text: 'Orders query returned 3000 rows (cut); customer 42 is ACME Corp in Lyon.',
    });
    const summarizer = createModelSummarizer({
      client: clients[provider],
      modelParams: { model: models[provider] },
      retry: fastRetry,
    });
    const compressor = new ScratchpadCompressor({ summarizer, store: new InMemoryToolResultStore() });
    const { messages, event } = await compressor.compress({
      entries: [...older, ...newest],
      budgetTokens: 1500,
    });

    expect(event).toMatchObject({
      method: 'summary',
      olderEntries: 'summarized',
      summarizer: { status: 'succeeded' },
    });
    expect(messages.slice(-2)).toEqual(newest);
    expect(String(messages[0]!.content)).toContain('customer 42 is ACME Corp in Lyon.');
    expect(pairingProblems(messages)).toEqual([]);
    expect(compressor.counter.countMessages(messages)).toBeLessThanOrEqual(1500);

    const requests = emulator.requests.filter((request) => request.provider === provider);
    expect(requests).toHaveLength(1);
    const body = sentText(requests[0]!.body);
    expect(body).toContain('condense an AI agent');
    expect(body).toContain('Call sql (call c1) with arguments');
    expect(body).toContain('Customer 42 is ACME Corp');
    expect(body).toMatch(/lines omitted/);
    expect(maxOutputTokens(provider, requests[0]!.body)).toBe(event.summarizer.maxTokens);
    expect(body).toContain(`at most ${Math.floor(event.summarizer.maxTokens! * 0.8)} tokens`);
  });

  it('falls back to truncation when the provider keeps failing', async () => {
    emulator.script({ kind: 'error', status: 503, message: 'overloaded', times: 2 });
    const summarizer = createModelSummarizer({
      client: clients[provider],
      modelParams: { model: models[provider] },
      retry: fastRetry,
    });
    const { messages, event } = await new ScratchpadCompressor({ summarizer }).compress({
      entries: [...older, ...newest],
      budgetTokens: 1500,
    });
    expect(event.method).toBe('truncation');
    expect(event.summarizer.status).toBe('failed');
    expect(event.summarizer.error).toContain('overloaded');
    expect(messages.slice(-2)).toEqual(newest);
  });

  it('times out a provider that never answers', async () => {
    emulator.script({ kind: 'hang' });
    const summarizer = createModelSummarizer({
      client: clients[provider],
      modelParams: { model: models[provider] },
      retry: { maxAttempts: 1 },
    });
    // The emulator never answers: without the timeout compress would never settle, and the test's
    // own timeout is the bound.
    const { messages, event } = await new ScratchpadCompressor({
      summarizer,
      summaryTimeoutMs: 300,
    }).compress({
      entries: [...older, ...newest],
      budgetTokens: 1500,
    });
    // One attempt, never a retry after the timeout. On a loaded machine the timeout can fire before
    // the request is written, and its abort then cancels it: zero requests is a timeout too.
    expect(emulator.requests.filter((request) => request.provider === provider).length).toBeLessThanOrEqual(
      1,
    );
    expect(event.summarizer.status).toBe('timed-out');
    expect(event.summarizer.error).toBe('the summary took longer than 300 ms');
    expect(event.method).toBe('truncation');
    expect(messages.slice(-2)).toEqual(newest);
  });

  it('rejects a summary longer than the budget (overshoot) and truncates instead', async () => {
    emulator.script({ kind: 'text', text: 'blah '.repeat(5000) });
    const summarizer = createModelSummarizer({
      client: clients[provider],
      modelParams: { model: models[provider] },
      retry: fastRetry,
    });
    const { event, messages } = await new ScratchpadCompressor({ summarizer }).compress({
      entries: [...older, ...newest],
      budgetTokens: 1500,
    });
    expect(event.summarizer.status).toBe('overshot');
    expect(event.method).toBe('truncation');
    expect(messages.slice(-2)).toEqual(newest);
  });
});

describe('createModelSummarizer', () => {
  it('asks in French when the compressor writes French', async () => {
    emulator.script({ kind: 'text', text: 'Résumé court.' });
    const summarizer = createModelSummarizer({
      client: clients.openai,
      modelParams: { model: models.openai },
    });
    const { event } = await new ScratchpadCompressor({ summarizer, language: 'fr' }).compress({
      entries: [...older, ...newest],
      budgetTokens: 1500,
    });
    expect(event.method).toBe('summary');
    expect(sentText(emulator.lastRequest('openai')?.body)).toContain('Répondez en français');
  });

  it('keeps the summarizer’s input within its budget however large the entries', async () => {
    emulator.script({ kind: 'text', text: 'ok' });
    const counter = createTokenCounter();
    const summarizer = createModelSummarizer({
      client: clients.openai,
      modelParams: { model: models.openai },
      inputBudgetTokens: 2000,
    });
    const huge = [
      ...callAndResult('h1', 'dump', logLines(200_000)),
      ...callAndResult('h2', 'dump', 'z '.repeat(300_000)),
    ];
    await summarizer.summarize(huge, { maxTokens: 200, signal: new AbortController().signal });
    const body = emulator.lastRequest('openai')?.body as { messages: { role: string; content: string }[] };
    const user = body.messages.find((message) => message.role === 'user')!;
    expect(counter.countText(user.content)).toBeLessThanOrEqual(2000);
    expect(user.content).toContain('Result of dump (call h1)');
    expect(user.content).toContain('Result of dump (call h2)');
  });
});
