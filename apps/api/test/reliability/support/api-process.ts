import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { spawnApi, type ApiChildProcess } from '../../support/api-child-process';

export { waitFor } from '../../support/wait-for';

const workspace = join(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/**
 * A real API process (`node <the API bundled from the current sources>`, as production runs the
 * build), bundled once per test run by `test/support/api-bundle.global-setup.ts`. `main.spec.ts`
 * covers the tsx entry (`npx tsx apps/api/src/main.ts`) itself.
 */
export type ApiProcess = ApiChildProcess;

/** Starts the API with this environment (on a free port) and waits for its URL. */
export function startApiProcess(environment: Record<string, string>): Promise<ApiProcess> {
  return spawnApi(['--enable-source-maps', inject('apiBundle')], workspace, {
    LOG_LEVEL: 'info',
    ...environment,
  });
}

/** Sends `signal` and waits for the exit; nothing when the process already ended (or never started). */
export async function stopApiProcess(api: ApiProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  await api?.stop(signal);
}
