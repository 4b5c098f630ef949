import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emulatorProviders, newAdminKey } from './support/api-environment';
import {
  freePort,
  startProcess,
  stopProcess,
  waitForExit,
  waitForHttp,
  type Started,
} from './support/processes';
import { startSandboxEngine, stopSandboxEngine, type SandboxEngine } from './support/sandbox-engine';
import { seed } from './support/seed';
import { seedTranscripts } from './support/seed-transcripts';

const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));
const bin = (name: string) => join(workspaceRoot, 'node_modules/.bin', name);

/**
 * The real stack for the browser tests: the provider emulator, a private Docker engine for the
 * sandbox, the API on a temporary SQLite file, seeded over HTTP, and the console's production build under `next start`.
 * What the tests need travels in environment variables (Playwright's workers inherit them).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const directory = mkdtempSync(join(tmpdir(), 'agentdesk-console-e2e-'));
  const started: Started[] = [];
  let sandboxEngine: SandboxEngine | undefined;
  const teardown = async () => {
    for (const process of started.reverse()) stopProcess(process);
    await Promise.all(started.map(waitForExit));
    // Last: the API above may still have had sandbox containers on it.
    if (sandboxEngine !== undefined) await stopSandboxEngine(sandboxEngine);
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const [emulatorPort, apiPort, consolePort] = [await freePort(), await freePort(), await freePort()];
    const quietEnvironment = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn' };

    const emulator = startProcess(
      'provider emulator',
      bin('tsx'),
      ['libs/provider-emulator/src/cli.ts', '--port', String(emulatorPort)],
      {
        cwd: workspaceRoot,
        env: quietEnvironment,
      },
    );
    started.push(emulator);
    const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;

    // A short folder of its own: the engine's unix socket path must stay under 108 bytes.
    sandboxEngine = await startSandboxEngine(
      workspaceRoot,
      bin('tsx'),
      mkdtempSync('/tmp/adk-e2e-'),
      quietEnvironment,
    );

    const adminKey = newAdminKey();
    const databaseUrl = `sqlite:${join(directory, 'agentdesk.db')}`;
    const api = startProcess('API', bin('tsx'), ['apps/api/src/main.ts'], {
      cwd: workspaceRoot,
      env: {
        ...quietEnvironment,
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        DATABASE_URL: databaseUrl,
        // Low, so a huge tool result really compresses the scratchpad (the transcript e2e shows it).
        AGENTDESK_SCRATCHPAD_BUDGET_TOKENS: '256',
        AGENTDESK_ADMIN_KEY: adminKey,
        ...sandboxEngine.apiEnvironment,
        ...emulatorProviders(emulatorUrl),
      },
    });
    started.push(api);
    const apiUrl = `http://127.0.0.1:${apiPort}`;

    await waitForHttp(`${emulatorUrl}/_emulator/health`, emulator);
    await waitForHttp(`${apiUrl}/readyz`, api);
    const transcripts = await seedTranscripts({
      apiUrl,
      emulatorUrl,
      adminKey,
      databaseUrl,
      tsx: bin('tsx'),
      seedScript: 'apps/console/e2e/support/seed-database.ts',
      cwd: workspaceRoot,
    });
    const seeded = await seed(apiUrl, emulatorUrl, adminKey);

    const consoleServer = startProcess(
      'console',
      bin('next'),
      ['start', 'apps/console', '--hostname', '127.0.0.1', '--port', String(consolePort)],
      {
        cwd: workspaceRoot,
        env: { ...quietEnvironment, AGENTDESK_API_URL: apiUrl },
      },
    );
    started.push(consoleServer);
    const consoleUrl = `http://127.0.0.1:${consolePort}`;
    await waitForHttp(`${consoleUrl}/sign-in`, consoleServer);

    Object.assign(process.env, {
      E2E_CONSOLE_URL: consoleUrl,
      E2E_API_URL: apiUrl,
      E2E_EMULATOR_URL: emulatorUrl,
      E2E_ADMIN_KEY: adminKey,
      E2E_SEEDED: JSON.stringify(seeded),
      E2E_TRANSCRIPTS: JSON.stringify(transcripts),
    });
    return teardown;
  } catch (error) {
    await teardown();
    throw error;
  }
}
