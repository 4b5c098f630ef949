import { it } from 'vitest';
import type { ScriptedReply } from '@agentdesk/provider-emulator';
import { startReliabilityApi } from './support/reliability-api';

const faults: Record<string, ScriptedReply[]> = {
  hang: [{ kind: 'hang', times: 3 }],
  hangOnce: [{ kind: 'hang', times: 1 }, { kind: 'text', text: 'after timeout' }],
  stallMid: [{ kind: 'text', text: 'partial answer that is long enough', chunkSize: 4, streamFault: { kind: 'stall', afterChunks: 5 }, times: 3 }],
  stall0: [{ kind: 'text', text: 'partial answer that is long enough', chunkSize: 4, streamFault: { kind: 'stall', afterChunks: 0 }, times: 3 }],
  slow: [{ kind: 'text', text: 'slow', delayMs: 1500, times: 3 }],
};

it('explore', async () => {
  const api = await startReliabilityApi({ AGENTDESK_PROVIDER_TIMEOUT_MS: '1000' });
  for (const model of ['gpt-test', 'claude-test', 'gemini-test']) {
    for (const [name, replies] of Object.entries(faults)) {
      for (const mode of ['json', 'sse'] as const) {
        if (name.startsWith('stall') && mode === 'json') continue;
        const session = await api.createSession(model);
        api.test.emulator.reset();
        api.script(...replies);
        const started = Date.now();
        const result = await Promise.race([api.send(session, 'hello', mode), new Promise<undefined>((r) => setTimeout(r, 15000))]);
        const attempts = api.test.emulator.requests.length;
        api.test.emulator.reset();
        if (!result) { console.log(`${model} ${name} ${mode} attempts=${attempts} STILL RUNNING after 15s`); continue; }
        const transcript = await api.transcript(session);
        const summary = mode === 'sse' ? result.events.map((e) => e.event === 'error' ? `error:${JSON.stringify(e.data['error'])}` : e.event).filter((e, i, a) => a[i - 1] !== e).join(',') : `${result.statusCode} ${result.response.body.slice(0, 200)}`;
        console.log(`${model} ${name} ${mode} ${Date.now() - started}ms attempts=${attempts} ${summary} | ${transcript.map((m) => `${m.role}:${m.status}:${JSON.stringify(m.contentParts).slice(0, 60)}:${JSON.stringify(m.error)}`).join(' ; ')}`);
      }
    }
  }
  await api.close();
}, 600_000);
