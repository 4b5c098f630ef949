import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emulatorProviders, newAdminKey } from './api-environment';
import { freePort, startProcess, stopProcess, waitForExit, waitForHttp, type Started } from './processes';

const workspaceRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const bin = (name: string) => join(workspaceRoot, 'node_modules/.bin', name);

export interface AlternateStack {
  consoleUrl: string;
  apiUrl: string;
  adminKey: string;
  /** The API's output so far (pino JSON lines), for tests that check what it logged. */
  apiOutput(): string;
  /** The console's output so far (`next start`), to say why a page failed. */
  consoleOutput(): string;
  /** Stops the API alone (the console keeps running), for pages seen while the API is down. */
  stopApi(): Promise<void>;
  stop(): Promise<void>;
}

/** Ports chosen before the start, for a stack whose environment must name its own URLs (single sign-on). */
export interface AlternatePorts {
  readonly api: number;
  readonly console: number;
}

/** Two free loopback ports for `startAlternateStack`. */
export async function alternatePorts(): Promise<AlternatePorts> {
  return { api: await freePort(), console: await freePort() };
}

/**
 * A second API (its own SQLite file, the shared provider emulator) configured by `apiEnvironment`,
 * and a console of its own in front of it (the console talks to one API): for pages that must be
 * seen against an API set up differently from the shared one — a sandbox turned off, an engine that
 * refuses connections, single sign-on. Stopping it removes both processes and the folder.
 */
export async function startAlternateStack(
  apiEnvironment: Record<string, string>,
  ports?: AlternatePorts,
): Promise<AlternateStack> {
  const directory = mkdtempSync(join(tmpdir(), 'agentdesk-console-e2e-alt-'));
  const started: Started[] = [];
  const stop = async () => {
    for (const process of started.reverse()) stopProcess(process);
    await Promise.all(started.map((process) => waitForExit(process)));
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const { api: apiPort, console: consolePort } = ports ?? (await alternatePorts());
    const adminKey = newAdminKey();
    const emulatorUrl = process.env.E2E_EMULATOR_URL ?? '';
    const quietEnvironment = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LOG_LEVEL: 'warn' };
    const api = startProcess('alternate API', bin('tsx'), ['apps/api/src/main.ts'], {
      cwd: workspaceRoot,
      env: {
        ...quietEnvironment,
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        DATABASE_URL: `sqlite:${join(directory, 'agentdesk.db')}`,
        AGENTDESK_ADMIN_KEY: adminKey,
        ...emulatorProviders(emulatorUrl),
        ...apiEnvironment,
      },
    });
    started.push(api);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const consoleServer = startProcess(
      'alternate console',
      bin('next'),
      ['start', 'apps/console', '--hostname', '127.0.0.1', '--port', String(consolePort)],
      { cwd: workspaceRoot, env: { ...quietEnvironment, AGENTDESK_API_URL: apiUrl } },
    );
    started.push(consoleServer);
    const consoleUrl = `http://127.0.0.1:${consolePort}`;
    await Promise.all([
      waitForHttp(`${apiUrl}/readyz`, api),
      waitForHttp(`${consoleUrl}/sign-in`, consoleServer),
    ]);
    const stopApi = async () => {
      stopProcess(api);
      await waitForExit(api);
    };
    return {
      consoleUrl,
      apiUrl,
      adminKey,
      apiOutput: () => api.output(),
      consoleOutput: () => consoleServer.output(),
      stopApi,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
