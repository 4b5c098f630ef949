import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GenerativeModel } from '@google/generative-ai';
import { describe, expect, it } from 'vitest';
import { ModelRouter, ModelRoutingError } from './model-router';
import { ModelRoutingConfigError, readModelRoutingSettings } from '../config/provider-settings';

const environment = {
  OPENAI_API_KEY: 'sk-openai',
  ANTHROPIC_API_KEY: 'sk-ant',
  GEMINI_API_KEY: 'g-key',
  AGENTDESK_MODEL_ROUTES: JSON.stringify([
    { pattern: 'llama-*', provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'VLLM_KEY' },
    { pattern: 'claude-special', provider: 'openai' },
  ]),
  VLLM_KEY: 'vllm-secret',
};

describe('ModelRouter', () => {
  const router = new ModelRouter(readModelRoutingSettings(environment));

  it.each([
    ['gpt-4o-mini', 'openai', OpenAI],
    ['o3-mini', 'openai', OpenAI],
    ['claude-opus-x', 'anthropic', Anthropic],
    ['gemini-2.5-flash', 'gemini', GenerativeModel],
    ['llama-3-70b', 'openai', OpenAI],
    ['claude-special', 'openai', OpenAI],
  ] as const)('routes %s to %s', (model, provider, clientClass) => {
    const resolved = router.resolve(model);
    expect(resolved.provider).toBe(provider);
    expect(resolved.client).toBeInstanceOf(clientClass);
  });

  it('reuses one client per endpoint, and one Gemini client per model', () => {
    expect(router.resolve('gpt-4o').client).toBe(router.resolve('gpt-4.1').client);
    expect(router.resolve('llama-3').client).not.toBe(router.resolve('gpt-4o').client);
    expect(router.resolve('gemini-a').client).not.toBe(router.resolve('gemini-b').client);
    expect(router.resolve('gemini-a').client).toBe(router.resolve('gemini-a').client);
  });

  it('points a routed model at its base URL with its own key', () => {
    const client = router.resolve('llama-3').client as OpenAI;
    expect(client.baseURL).toBe('http://127.0.0.1:8000/v1');
    expect(client.apiKey).toBe('vllm-secret');
  });

  it('refuses an unknown model with a message saying how to fix it', () => {
    expect(() => router.resolve('mystery-model')).toThrow(ModelRoutingError);
    expect(() => router.resolve('mystery-model')).toThrow(/AGENTDESK_MODEL_ROUTES/);
  });

  it('refuses a model whose provider has no key, naming the variable', () => {
    const bare = new ModelRouter(readModelRoutingSettings({ OPENAI_API_KEY: 'k' }));
    expect(() => bare.resolve('claude-x')).toThrow(/ANTHROPIC_API_KEY is not set/);
    expect(bare.configuredProviders()).toEqual(['openai']);
  });
});

describe('readModelRoutingSettings', () => {
  it.each([
    [{ AGENTDESK_MODEL_ROUTES: 'not json' }, /JSON array/],
    [{ AGENTDESK_MODEL_ROUTES: '[{"pattern":"x","provider":"mistral"}]' }, /provider/],
    [{ OPENAI_BASE_URL: 'nope' }, /OPENAI_BASE_URL/],
    [{ AGENTDESK_PROVIDER_TIMEOUT_MS: '5' }, /AGENTDESK_PROVIDER_TIMEOUT_MS/],
    [
      { AGENTDESK_MODEL_ROUTES: '[{"pattern":"x","provider":"openai","color":"red"}]' },
      /AGENTDESK_MODEL_ROUTES\[0\]/,
    ],
    [
      { AGENTDESK_MODEL_ROUTES: '[{"pattern":"llama-*","provider":"openai","apiKeyEnv":"VLLM_KEY"}]' },
      /AGENTDESK_MODEL_ROUTES\[0\]\.apiKeyEnv: the route "llama-\*" reads its key from VLLM_KEY, which is not set/,
    ],
  ])('rejects %o', (environmentValues, message) => {
    expect(() => readModelRoutingSettings(environmentValues)).toThrow(ModelRoutingConfigError);
    expect(() => readModelRoutingSettings(environmentValues)).toThrow(message);
  });

  it('reads a route’s key at start, so the router never looks at the environment again', () => {
    const variables: Record<string, string | undefined> = { ...environment };
    const router = new ModelRouter(readModelRoutingSettings(variables));
    variables['VLLM_KEY'] = undefined;
    expect((router.resolve('llama-3').client as OpenAI).apiKey).toBe('vllm-secret');
  });

  it('never exposes keys when serialized', () => {
    const settings = readModelRoutingSettings({ ...environment, OPENAI_API_KEY: 'sk-very-secret' });
    expect(JSON.stringify(settings)).not.toContain('sk-very-secret');
    expect(JSON.stringify(settings)).not.toContain('vllm-secret');
  });
});
