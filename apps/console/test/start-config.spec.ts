import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The production build `nx test console` depends on: `next start` is what operators run.
const consoleRoot = fileURLToPath(new URL('..', import.meta.url));
const nextBin = join(consoleRoot, '../../node_modules/.bin/next');

describe('next start with a bad setting', () => {
  it('exits 2 listing every problem, before serving anything', async () => {
    expect(existsSync(join(consoleRoot, '.next/BUILD_ID')), 'run `nx build console` first').toBe(true);
    const secret = 'only-sixteen-chr';
    const child = spawn(nextBin, ['start', consoleRoot, '--hostname', '127.0.0.1', '--port', '0'], {
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        AGENTDESK_API_URL: 'not a url',
        AGENTDESK_CONSOLE_SESSION_SECRET: secret,
        AGENTDESK_CONSOLE_SECURE_COOKIE: 'on',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);
    expect(code, output).toBe(2);
    expect(output).toContain('AGENTDESK_API_URL: must be an http(s) URL');
    expect(output).toContain('AGENTDESK_CONSOLE_SESSION_SECRET: must be at least 32 characters');
    expect(output).toContain('AGENTDESK_CONSOLE_SECURE_COOKIE: must be true or false');
    expect(output).not.toContain(secret);
  });
});
