import { mkdtempSync } from 'node:fs';
import { type TestProject } from 'vitest/node';
import { buildOfflineBaseImage, startPrivateEngine } from '../src/index';
import { testBaseImage } from './test-engine';

/**
 * One private Docker engine for the lib's whole test run: installed with apt-get when missing (as
 * root), started on its own socket and data root in a temp folder, stopped and deleted at the end.
 * It never uses a system engine, so a developer's containers are never touched.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const directory = mkdtempSync('/tmp/agentdesk-engine-');
  const engine = await startPrivateEngine({ directory });
  await buildOfflineBaseImage(engine.engine, { reference: testBaseImage });
  project.provide('dockerHost', engine.dockerHost);
  return () => engine.stop({ removeDirectory: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dockerHost: string;
  }
}
