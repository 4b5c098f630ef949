import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import type { ProviderName, SupportedClient } from '../../src';

export const models: Record<ProviderName, string> = {
  openai: 'gpt-test',
  anthropic: 'claude-test',
  gemini: 'gemini-test',
};

export const providerNames: ProviderName[] = ['openai', 'anthropic', 'gemini'];

/**
 * Official SDK clients pointed at the emulator. They keep the SDKs' default retry settings on purpose:
 * tests then prove that `executeChatCompletion` turns SDK retries off and runs the only retry loop.
 */
export function createClients(emulator: ProviderEmulator, options: { anthropicVersion?: string } = {}) {
  return {
    openai: new OpenAI({ apiKey: 'sk-test', baseURL: emulator.openaiBaseUrl }),
    anthropic: new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: emulator.anthropicBaseUrl,
      ...(options.anthropicVersion && { defaultHeaders: { 'anthropic-version': options.anthropicVersion } }),
    }),
    gemini: new GoogleGenerativeAI('gemini-key').getGenerativeModel(
      { model: models.gemini },
      { baseUrl: emulator.geminiBaseUrl, apiVersion: 'v1beta' },
    ),
  } satisfies Record<ProviderName, SupportedClient>;
}

/** Starts one emulator for the file and clears its queue and records before each test. */
export function useEmulator(): {
  emulator: () => ProviderEmulator;
  clients: () => ReturnType<typeof createClients>;
} {
  let emulator: ProviderEmulator | undefined;
  let clients: ReturnType<typeof createClients> | undefined;
  beforeAll(async () => {
    emulator = await startProviderEmulator();
    clients = createClients(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => emulator?.reset());
  return {
    emulator: () => {
      if (!emulator) throw new Error('emulator not started');
      return emulator;
    },
    clients: () => {
      if (!clients) throw new Error('emulator not started');
      return clients;
    },
  };
}

/** Collects a stream's parts. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of iterable) parts.push(part);
  return parts;
}
