import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiClient } from './helpers';
import type { ProviderEmulator } from '../src/index';

const cliPath = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
let child: ChildProcess | undefined;

afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

/** Starts the CLI under tsx and resolves with everything it printed once the URLs are out. */
function startCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = spawn(process.execPath, ['--import', 'tsx', cliPath, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('control')) resolve(output);
    });
    started.stderr.on('data', (data: Buffer) => (output += data.toString()));
    started.on('exit', (code) => reject(new Error(`CLI exited with ${code}: ${output}`)));
  });
}

describe('cli', () => {
  it('prints the base URLs and serves the providers and the control surface', async () => {
    const output = await startCli(['--port', '0', '--chunk-size', '4']);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(url).toBeDefined();
    expect(output).toContain(`OpenAI     baseURL  ${url}/v1`);
    expect(output).toContain(`Anthropic  baseURL  ${url}`);

    await fetch(`${url}/_emulator/script`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'text', text: 'via cli' }),
    });
    const client = openAiClient({ openaiBaseUrl: `${url}/v1` } as ProviderEmulator);
    const completion = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('via cli');
  });

  it('exits with an error for an invalid option', async () => {
    await expect(startCli(['--port', 'abc'])).rejects.toThrow(/--port must be a non-negative integer/);
  });
});
