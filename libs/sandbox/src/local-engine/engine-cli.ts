/**
 * Runs a private Docker engine as a process, for end-to-end tests of an out-of-process API server
 * (the console's browser tests):
 *
 *   npx tsx libs/sandbox/src/local-engine/engine-cli.ts --directory /tmp/engine-x --base-image REF
 *
 * Starts dockerd on its own socket and data root inside `--directory`, builds the offline base image
 * `--base-image` (from this host's node and busybox), prints one line `engine-ready <DOCKER_HOST>`,
 * and on SIGINT/SIGTERM stops the daemon and deletes the directory.
 */
import { parseArgs } from 'node:util';
import { buildOfflineBaseImage } from './offline-base-image';
import { startPrivateEngine } from './private-engine';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { directory: { type: 'string' }, 'base-image': { type: 'string' } },
    strict: true,
  });
  if (values.directory === undefined || values['base-image'] === undefined)
    throw new Error('--directory and --base-image are required');
  const engine = await startPrivateEngine({
    directory: values.directory,
    log: (line) => console.error(line),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    engine.stop({ removeDirectory: true }).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await buildOfflineBaseImage(engine.engine, { reference: values['base-image'] });
  } catch (error) {
    await engine.stop({ removeDirectory: true });
    throw error;
  }
  console.log(`engine-ready ${engine.dockerHost}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
