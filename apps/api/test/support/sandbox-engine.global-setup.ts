import { mkdtempSync } from 'node:fs';
import { buildOfflineBaseImage, startPrivateEngine } from '@agentdesk/sandbox';
import type { TestProject } from 'vitest/node';

/** The offline base image the API's sandbox suites build FROM (made once here). */
export const apiTestBaseImage = 'agentdesk-api-test-base:local';

/**
 * One private Docker engine for the API's whole test run (the same approach as libs/sandbox):
 * installed with apt-get when missing (root), started on its own socket and data root, stopped and
 * deleted at the end. Suites that need it read its DOCKER_HOST with `inject('dockerHost')`; all
 * others run with the sandbox disabled and never touch it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = mkdtempSync('/tmp/agentdesk-api-engine-');
  const engine = await startPrivateEngine({ directory, log: () => undefined });
  await buildOfflineBaseImage(engine.engine, { reference: apiTestBaseImage });
  project.provide('dockerHost', engine.dockerHost);
  return () => engine.stop({ removeDirectory: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dockerHost: string;
  }
}
