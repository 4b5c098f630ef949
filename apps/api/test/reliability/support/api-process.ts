import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnApi, type ApiChildProcess } from '../../support/api-child-process';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const main = join(workspace, 'apps/api/src/main.ts');

/** A real API process (`node --import tsx apps/api/src/main.ts`), as an operator runs it. */
export type ApiProcess = ApiChildProcess;

/** Starts the API with this environment (on a free port) and waits for its URL. */
export function startApiProcess(environment: Record<string, string>): Promise<ApiProcess> {
  return spawnApi(['--import', 'tsx', main], workspace, { LOG_LEVEL: 'info', ...environment });
}

/** Sends `signal` and waits for the exit; nothing when the process already ended (or never started). */
export async function stopApiProcess(api: ApiProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  await api?.stop(signal);
}

/** Polls `probe` every 25 ms until it returns a value; throws after `attempts` tries. */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  attempts = 400,
): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
