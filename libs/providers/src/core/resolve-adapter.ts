import Anthropic from '@anthropic-ai/sdk';
import { GenerativeModel } from '@google/generative-ai';
import OpenAI from 'openai';
import { createAnthropicAdapter, type AnthropicMessagesClient } from '../anthropic/anthropic-adapter';
import { createGeminiAdapter, type GeminiModelClient } from '../gemini/gemini-adapter';
import { createOpenAIAdapter, type OpenAIChatClient } from '../openai/openai-adapter';
import type { ProviderAdapter } from './provider-adapter';

/** A client `executeChatCompletion` accepts: the official SDK clients, or anything shaped like one. */
export type SupportedClient = OpenAIChatClient | AnthropicMessagesClient | GeminiModelClient;

const adapters = new WeakMap<object, ProviderAdapter>();

function hasFunction(value: unknown, path: readonly string[]): boolean {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || (typeof current !== 'object' && typeof current !== 'function')) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'function';
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name ?? 'object';
}

function createAdapter(client: object): ProviderAdapter {
  if (client instanceof OpenAI) return createOpenAIAdapter(client);
  if (client instanceof Anthropic) return createAnthropicAdapter(client);
  if (client instanceof GenerativeModel) return createGeminiAdapter(client);
  // Duck typing for subclasses across package copies, wrappers and test doubles.
  if (hasFunction(client, ['chat', 'completions', 'create']))
    return createOpenAIAdapter(client as OpenAIChatClient);
  if (hasFunction(client, ['messages', 'create']))
    return createAnthropicAdapter(client as AnthropicMessagesClient);
  if (hasFunction(client, ['generateContent']) && hasFunction(client, ['generateContentStream'])) {
    return createGeminiAdapter(client as GeminiModelClient);
  }
  throw new TypeError(
    `executeChatCompletion: unsupported client type ${describeType(client)}; ` +
      'expected an OpenAI, Anthropic or @google/generative-ai GenerativeModel client',
  );
}

/** Finds (and caches per client) the adapter for a client; anything unrecognized is a TypeError. */
export function resolveAdapter(client: unknown): ProviderAdapter {
  if (client === null || typeof client !== 'object') {
    throw new TypeError(
      `executeChatCompletion: unsupported client type ${describeType(client)}; ` +
        'expected an OpenAI, Anthropic or @google/generative-ai GenerativeModel client',
    );
  }
  let adapter = adapters.get(client);
  if (!adapter) {
    adapter = createAdapter(client);
    adapters.set(client, adapter);
  }
  return adapter;
}
