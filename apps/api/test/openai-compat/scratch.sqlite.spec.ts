import { describe, expect, it } from 'vitest';
import { useCompatApi } from './compat-context';

describe('scratch', () => {
  const ctx = useCompatApi('sqlite');
  it('works', async () => {
    const { openai, test } = ctx();
    test.emulator.script({ kind: 'text', text: 'Hello there', match: { model: 'claude-test' } });
    const completion = await openai().chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
    console.log(JSON.stringify(completion));
    const stream = await openai().chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) console.log(JSON.stringify(chunk));
    const models = await openai().models.list();
    console.log(JSON.stringify(models.data));
    const bad = await openai({ apiKey: 'nope' }).models.list().catch((e) => e);
    console.log(bad.constructor.name, bad.status, JSON.stringify(bad.error));
    const bad2 = await openai().chat.completions.create({ model: 'gpt-test', messages: [], foo: 1 } as never).catch((e) => e);
    console.log(bad2.constructor.name, bad2.status, JSON.stringify(bad2.error));
    const raw = await fetch(`${ctx().baseURL}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${ctx().key}`, 'content-type': 'application/json' }, body: '{bad' });
    console.log(raw.status, await raw.text());
    expect(1).toBe(1);
  });
});
