import { describe, expect, it } from 'vitest';
import { ModelRouter } from '../model-access/model-router';
import { readModelRoutingSettings } from '../config/provider-settings';
import { listServedModels } from './model-list';

describe('listServedModels', () => {
  it('lists the default model and exact routes whose provider has credentials, nothing invented', () => {
    const environment = {
      OPENAI_API_KEY: 'sk-test',
      ANTHROPIC_API_KEY: 'sk-ant-test',
      AGENTDESK_DEFAULT_MODEL: 'claude-sonnet-test',
      AGENTDESK_MODEL_ROUTES: JSON.stringify([
        { pattern: 'llama-3-70b', provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1' },
        { pattern: 'mistral-*', provider: 'openai' },
        // No Gemini key here: this route's provider is not configured.
        { pattern: 'qwen-local', provider: 'gemini' },
        { pattern: 'gemini-pro-test', provider: 'gemini' },
        { pattern: 'claude-sonnet-test', provider: 'anthropic' },
      ]),
    };
    const settings = readModelRoutingSettings(environment);
    const list = listServedModels(new ModelRouter(settings), settings);
    expect(list).toEqual({
      object: 'list',
      data: [
        { id: 'claude-sonnet-test', object: 'model', created: 0, owned_by: 'anthropic' },
        { id: 'llama-3-70b', object: 'model', created: 0, owned_by: 'openai' },
      ],
    });
  });

  it('is empty rather than wrong when the default model cannot be served', () => {
    const settings = readModelRoutingSettings({ AGENTDESK_DEFAULT_MODEL: 'gpt-test' });
    expect(listServedModels(new ModelRouter(settings), settings).data).toEqual([]);
  });
});
