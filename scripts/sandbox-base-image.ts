/**
 * `npm run sandbox:base-image [-- TAG]`: builds the offline sandbox base image (busybox + this
 * host's node, `docker import`) on the engine at DOCKER_HOST (or the default socket). For machines
 * that cannot pull; production sets AGENTDESK_SANDBOX_BASE_IMAGE to a registry image instead.
 */
import { EngineClient, buildOfflineBaseImage } from '@agentdesk/sandbox';

async function main(): Promise<void> {
  const reference =
    process.argv[2] ?? process.env['AGENTDESK_SANDBOX_BASE_IMAGE'] ?? 'agentdesk-sandbox-base:local';
  const dockerHost = process.env['DOCKER_HOST'];
  const engine = new EngineClient(dockerHost ? { dockerHost } : {});
  const imageId = await buildOfflineBaseImage(engine, { reference });
  console.log(`${reference} → ${imageId} on ${engine.describe()}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
