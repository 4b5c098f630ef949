import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnApi, type ApiChildProcess } from '../../support/api-child-process';

export { waitFor } from '../../support/wait-for';

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
