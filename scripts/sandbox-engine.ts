/**
 * `npm run sandbox:engine [-- DIR]`: a private Docker engine for AgentDesk on a machine where none
 * runs (root; Debian's docker.io + busybox-static are installed with apt-get when missing). Data
 * and socket live in DIR (default /tmp/agentdesk-engine); the offline sandbox base image is built
 * when the configured one is absent. Runs until Ctrl-C, then stops the daemon with SIGTERM.
 *
 *   npm run sandbox:engine &   export DOCKER_HOST=unix:///tmp/agentdesk-engine/docker.sock
 */
import { buildOfflineBaseImage, startPrivateEngine, PrivateEngineError } from '@agentdesk/sandbox';

async function main(): Promise<void> {
  const directory = process.argv[2] ?? '/tmp/agentdesk-engine';
  const engine = await startPrivateEngine({ directory, log: (line) => console.log(line) });
  const baseImage = process.env['AGENTDESK_SANDBOX_BASE_IMAGE'] ?? 'agentdesk-sandbox-base:local';
  if (!(await engine.engine.inspectImage(baseImage))) {
    console.log(
      `[sandbox] ${baseImage} is absent: building the offline base from this host's node and busybox`,
    );
    await buildOfflineBaseImage(engine.engine, { reference: baseImage });
  }
  console.log(`\nexport DOCKER_HOST=${engine.dockerHost}\n\nCtrl-C stops the engine.`);
  const stop = () => {
    void engine.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof PrivateEngineError ? error.message : error);
  process.exit(1);
});
