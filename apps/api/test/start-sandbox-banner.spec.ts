import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const banner = join(workspace, 'scripts/sandbox-banner.ts');

/**
 * The sandbox part of `npm start`'s banner (scripts/sandbox-banner.ts, printed by scripts/start.ts),
 * run the way `npm start` runs it: a tsx process with the operator's environment.
 */
describe('npm start: the sandbox banner', () => {
  let folder: string;
  let probe: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentdesk-banner-'));
    probe = join(folder, 'print-banner.mts');
    await writeFile(
      probe,
      `import { prepareSandboxForStart } from ${JSON.stringify(banner)};\n` +
        'console.log(await prepareSandboxForStart(process.env));\n' +
        "console.log(`OFFLINE_BASE=${process.env['AGENTDESK_SANDBOX_OFFLINE_BASE'] ?? ''}`);\n",
    );
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const printBanner = async (environment: Record<string, string>): Promise<string> =>
    (
      await run(process.execPath, ['--import', 'tsx', probe], {
        cwd: workspace,
        env: { PATH: process.env['PATH'] ?? '', ...environment },
      })
    ).stdout;

  it('names the engine and its version when one answers at DOCKER_HOST, and turns on the offline base (this machine cannot pull)', async () => {
    const dockerHost = inject('dockerHost');
    const stdout = await printBanner({ DOCKER_HOST: dockerHost });
    expect(stdout).toMatch(new RegExp(`^SANDBOX: Docker engine \\d+\\.\\d+\\S* at ${dockerHost}\\.`));
    expect(stdout).toContain('ensured in\nthe background');
    expect(stdout).toContain('run_command, read_file, write_file and list_files');
    expect(stdout).toContain('OFFLINE_BASE=true');
  });

  it('with no engine, says so, that everything else works, and gives the one documented command for a private engine', async () => {
    const dockerHost = `unix://${folder}/no-engine.sock`;
    const stdout = await printBanner({ DOCKER_HOST: dockerHost });
    expect(stdout).toContain(`SANDBOX: no Docker engine answers at ${dockerHost}. Everything else works;`);
    expect(stdout).toContain('/v1/admin/sandbox/* with 503');
    const command = /^ {2}(npm run sandbox:engine .*)$/m.exec(stdout)?.[1];
    expect(command).toBe(
      'npm run sandbox:engine &   then   export DOCKER_HOST=unix:///tmp/agentdesk-engine/docker.sock',
    );
    // The same command is the README's, and the socket it names is where the script puts it.
    const readme = await readFile(join(workspace, 'README.md'), 'utf8');
    expect(readme).toContain('npm run sandbox:engine &');
    expect(readme).toContain('export DOCKER_HOST=unix:///tmp/agentdesk-engine/docker.sock');
    const engineScript = await readFile(join(workspace, 'scripts/sandbox-engine.ts'), 'utf8');
    expect(engineScript).toContain("process.argv[2] ?? '/tmp/agentdesk-engine'");
  });

  it('says when the sandbox is turned off', async () => {
    const stdout = await printBanner({ AGENTDESK_SANDBOX_ENABLED: 'false' });
    expect(stdout).toMatch(/^SANDBOX: disabled \(AGENTDESK_SANDBOX_ENABLED=false\)/);
  });
});
