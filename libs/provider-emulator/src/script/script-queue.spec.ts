import { describe, expect, it } from 'vitest';
import { ScriptQueue } from './script-queue';

const target = { provider: 'openai' as const, model: 'gpt-test', stream: false };

describe('ScriptQueue', () => {
  it('hands out the first matching reply and skips the others', () => {
    const queue = new ScriptQueue();
    queue.enqueue([
      { kind: 'text', text: 'gemini', match: { provider: 'gemini' } },
      { kind: 'text', text: 'stream', match: { stream: true } },
      { kind: 'text', text: 'model', match: { provider: 'openai', model: 'gpt-test' } },
    ]);
    expect(queue.take(target)).toMatchObject({ text: 'model' });
    expect(queue.take(target)).toBeUndefined();
    expect(queue.take({ ...target, stream: true })).toMatchObject({ text: 'stream' });
    expect(queue.pending()).toHaveLength(1);
  });

  it('counts down times and keeps always-replies forever', () => {
    const queue = new ScriptQueue();
    queue.enqueue([
      { kind: 'hang', times: 2 },
      { kind: 'text', text: 'x', times: 'always' },
    ]);
    expect(queue.take(target)?.kind).toBe('hang');
    expect(queue.take(target)?.kind).toBe('hang');
    for (let index = 0; index < 5; index++) expect(queue.take(target)?.kind).toBe('text');
    queue.clear();
    expect(queue.take(target)).toBeUndefined();
  });
});
