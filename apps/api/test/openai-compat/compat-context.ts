import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Engine } from '../support/engines';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/test-api';

/** The models the suites run on: one per provider, all answered by the emulator. */
export const providerModels = [
  { provider: 'openai', model: 'gpt-test' },
  { provider: 'anthropic', model: 'claude-test' },
  { provider: 'gemini', model: 'gemini-test' },
] as const;

/** A listening API (real HTTP) with a user key, shared by one engine's OpenAI-compatible suites. */
export interface CompatContext {
  readonly test: TestApi;
  /** `http://127.0.0.1:<port>/v1`, the base URL every OpenAI client takes. */
  readonly baseURL: string;
  readonly key: string;
  /** The official SDK against the API; its own retries are off so each test sees one request. */
  openai(options?: { apiKey?: string; maxRetries?: number }): OpenAI;
}

/** Starts the API once for the enclosing `describe`, resets the emulator before each test. */
export function useCompatApi(engine: Engine, environment: Record<string, string> = {}): () => CompatContext {
  let context: CompatContext | undefined;
  beforeAll(async () => {
    const test = await startTestApi(engine, environment);
    try {
      const url = await test.api.listen();
      const alice = await createLocalUser(test.api.repositories, 'alice');
      const { key } = await issueUserKey(test.api.repositories, alice);
      const baseURL = `${url}/v1`;
      context = {
        test,
        baseURL,
        key,
        openai: (options = {}) =>
          new OpenAI({ apiKey: options.apiKey ?? key, baseURL, maxRetries: options.maxRetries ?? 0 }),
      };
    } catch (error) {
      await test.close();
      throw error;
    }
  });
  afterAll(async () => {
    await context?.test.close();
  });
  beforeEach(() => {
    context?.test.emulator.reset();
  });
  return () => {
    if (context === undefined) throw new Error('the API is not started');
    return context;
  };
}
