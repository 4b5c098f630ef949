import type { SupportedClient } from '@agentdesk/providers';
import { describe, expect, it, vi } from 'vitest';
import type { ResolvedModel } from '../../model-access/model-router';
import { runTarget, type TargetCall } from './run-target';

const call: TargetCall = {
  model: 'gpt-fake',
  schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  schemaName: 'fake',
  strict: true,
  messages: [{ role: 'user', content: 'ok?' }],
  timeoutMs: 50,
};

/** A duck-typed OpenAI client whose call never settles and ignores the abort signal. */
const deafClient = {
  chat: { completions: { create: () => new Promise(() => undefined) } },
} as unknown as SupportedClient;

function routerTo(client: SupportedClient) {
  return { resolve: (model: string): ResolvedModel => ({ model, provider: 'openai', client }) };
}

describe('runTarget', () => {
  it('gives up at the timeout even when the client ignores the abort signal', async () => {
    // On a fake clock: "at the timeout" is exact (not before 50 ms, at 50 ms), with no real wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const logger = { error: vi.fn() };
      let settled = false;
      const pending = runTarget({ router: routerTo(deafClient), logger }, call).finally(
        () => (settled = true),
      );
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const result = await pending;
      expect(result).toMatchObject({
        status: 'error',
        provider: 'openai',
        schemaTarget: 'openai-strict',
        error: { kind: 'timeout', code: 'timeout', message: expect.stringContaining('50 ms') },
      });
      expect(result.loweredSchema).toMatchObject({ additionalProperties: false });
      // Measured on the real clock (node:perf_hooks), so only reported here, not compared.
      expect(result.latencyMs).toEqual(expect.any(Number));
      expect(logger.error).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns an unexpected failure into a generic error and logs it', async () => {
    const logger = { error: vi.fn() };
    const router = {
      resolve: (): ResolvedModel => {
        throw new Error('internal detail /etc/secret');
      },
    };
    const result = await runTarget({ router, logger }, call);
    expect(result).toMatchObject({
      status: 'error',
      provider: null,
      error: { kind: 'internal', code: 'internal_error' },
    });
    expect(JSON.stringify(result)).not.toContain('/etc/secret');
    expect(logger.error).toHaveBeenCalledOnce();
  });
});
