import type Anthropic from '@anthropic-ai/sdk';
import type { GenerativeModel } from '@google/generative-ai';
import type OpenAI from 'openai';
import type { ProviderName, SupportedClient } from '@agentdesk/providers';

/** Chunks one real streamed answer produced, per provider, as the official SDKs decoded them. */
export type RecordedChunks = Record<ProviderName, unknown[]>;

async function collect(iterable: AsyncIterable<unknown>): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

/** Streams one answer through each SDK and keeps the decoded chunk objects. */
export async function recordChunks(
  clients: { openai: OpenAI; anthropic: Anthropic; gemini: GenerativeModel },
  models: Record<ProviderName, string>,
): Promise<RecordedChunks> {
  const messages = [{ role: 'user' as const, content: 'Hello' }];
  return {
    openai: await collect(
      await clients.openai.chat.completions.create({
        model: models.openai,
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }),
    ),
    anthropic: await collect(
      await clients.anthropic.messages.create({
        model: models.anthropic,
        max_tokens: 256,
        messages,
        stream: true,
      }),
    ),
    gemini: await collect((await clients.gemini.generateContentStream('Hello')).stream),
  };
}

/** Replays recorded chunks as a fresh async iterable, as an SDK stream would hand them out. */
export async function* replay(chunks: readonly unknown[]): AsyncIterable<unknown> {
  for (const chunk of chunks) yield chunk;
}

/**
 * Duck-typed clients (which `executeChatCompletion` accepts) whose streaming calls replay recorded
 * chunks: no network, no SDK parsing, so only our per-chunk work differs from a plain loop.
 */
export function replayingClients(recorded: RecordedChunks): Record<ProviderName, SupportedClient> {
  return {
    openai: {
      chat: { completions: { create: async () => replay(recorded.openai) } },
    } as unknown as SupportedClient,
    anthropic: { messages: { create: async () => replay(recorded.anthropic) } } as unknown as SupportedClient,
    gemini: {
      generateContent: async () => {
        throw new Error('streaming only');
      },
      generateContentStream: async () => ({
        stream: replay(recorded.gemini),
        response: new Promise(() => undefined),
      }),
    } as unknown as SupportedClient,
  };
}
