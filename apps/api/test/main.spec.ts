import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/auth/api-key-format';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const main = join(workspace, 'apps/api/src/main.ts');
const keyPattern = /adk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}/g;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `tsx apps/api/src/main.ts` from the workspace root until it prints its URL (then stops it) or exits. */
function runMain(environment: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: workspace,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (
        stdout.includes('listening on') &&
        (stdout.includes('Keep it secret') || !stdout.includes('First start'))
      ) {
        setTimeout(() => child.kill('SIGTERM'), 200);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('main.ts (npx tsx apps/api/src/main.ts)', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentdesk-main-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('prints its URL and, on the first start only, the admin key (never into a log line)', async () => {
    const environment = { DATABASE_URL: `sqlite:${join(folder, 'data', 'agentdesk.db')}` };
    const first = await runMain(environment);
    expect(first.stdout).toMatch(/AgentDesk API listening on http:\/\/127\.0\.0\.1:\d+/);
    const printed = first.stdout.match(keyPattern) ?? [];
    expect(new Set(printed).size).toBe(1);
    const key = printed[0] ?? '';
    const logLines = first.stdout.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(key);
    expect(logLines.join('\n')).not.toContain(key.slice(-43));

    const second = await runMain(environment);
    expect(second.stdout).toContain('listening on');
    expect(second.stdout.match(keyPattern)).toBeNull();
  });

  it('fails fast on invalid configuration, naming the variables and never their secret values', async () => {
    const secret = `${generateApiKey().key}-tampered`;
    const run = await runMain({
      DATABASE_URL: `sqlite:${join(folder, 'x.db')}`,
      PORT: 'http',
      AGENTDESK_ADMIN_KEY: secret,
      AGENTDESK_DEV_MODE: 'true',
      HOST: '0.0.0.0',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('PORT');
    expect(run.stderr).toContain('AGENTDESK_ADMIN_KEY');
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret.slice(4, 36));
    expect(run.stdout).not.toContain('listening on');
  });

  it('refuses dev mode on a non-loopback address, and warns loudly when it is on', async () => {
    const exposed = await runMain({
      DATABASE_URL: `sqlite:${join(folder, 'x.db')}`,
      AGENTDESK_DEV_MODE: 'true',
      HOST: '0.0.0.0',
    });
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toContain('must be a loopback address');

    const local = await runMain({
      DATABASE_URL: `sqlite:${join(folder, 'y.db')}`,
      AGENTDESK_DEV_MODE: 'true',
    });
    expect(local.stdout).toContain('listening on http://127.0.0.1:');
    expect(local.stderr).toContain('DEV MODE: requests WITHOUT an API key act as the anonymous local user');
  });
});
