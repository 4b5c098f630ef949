import { spawnApi, type ApiChildProcess } from '../../support/api-child-process';

/** A compiled API started with plain `node` (no loader, no tsx), as in production. */
export type CompiledApiProcess = ApiChildProcess;

/** `node <mainJs>` in `cwd` with exactly `environment`. Resolves once it listens. */
export function startCompiledApi(
  mainJs: string,
  cwd: string,
  environment: Record<string, string>,
): Promise<CompiledApiProcess> {
  return spawnApi([mainJs], cwd, environment);
}
