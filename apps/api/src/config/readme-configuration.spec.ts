import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allConfigEnvironment, loadConfig } from './app-config';

const readme = readFileSync(resolve(__dirname, '../../../../README.md'), 'utf8');
const configurationSection = readme.slice(
  readme.indexOf('## Configuration'),
  readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
);

/** Calls `loadConfig` on an environment that records every name it is asked for. */
function variablesReadBy(environment: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(environment, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name) as unknown;
    },
  });
  loadConfig(recording);
  return read;
}

describe('the README configuration table', () => {
  it('names, in full, every variable the config schema reads', () => {
    const missing = Object.keys(allConfigEnvironment).filter(
      (name) => !configurationSection.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });

  it('lists every variable loadConfig reads (nothing is read that the list does not declare)', () => {
    const declared = new Set(Object.keys(allConfigEnvironment));
    const undeclared = [...variablesReadBy({})].filter((name) => !declared.has(name));
    expect(undeclared).toEqual([]);
  });

  it('reads a route’s own key variable only because a route names it', () => {
    const read = variablesReadBy({
      AGENTDESK_MODEL_ROUTES: JSON.stringify([
        { pattern: 'llama-*', provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'LLAMA_KEY' },
      ]),
      LLAMA_KEY: 'secret',
    });
    expect(read.has('LLAMA_KEY')).toBe(true);
    expect(variablesReadBy({}).has('LLAMA_KEY')).toBe(false);
  });
});
