/**
 * What `npm start` says about the sandbox: the engine it will use (DOCKER_HOST or the default
 * socket), or that none answers — then everything else still works and one command starts a
 * private engine. Offline, a missing base image is built from this host's node and busybox.
 */
import { EngineClient } from '@agentdesk/sandbox';

export async function prepareSandboxForStart(environment: NodeJS.ProcessEnv): Promise<string> {
  if (
    environment['AGENTDESK_SANDBOX_ENABLED'] === 'false' ||
    environment['AGENTDESK_SANDBOX_ENABLED'] === '0'
  ) {
    return 'SANDBOX: disabled (AGENTDESK_SANDBOX_ENABLED=false): agent turns get no sandbox tools.';
  }
  // This machine cannot pull images: build the base from the host when it is absent.
  environment['AGENTDESK_SANDBOX_OFFLINE_BASE'] ??= 'true';
  const dockerHost = environment['DOCKER_HOST'];
  const engine = new EngineClient(dockerHost ? { dockerHost } : {});
  try {
    const version = await engine.version();
    return [
      `SANDBOX: Docker engine ${version} at ${engine.describe()}. The sandbox image and its pin are ensured in`,
      `the background; agent turns get run_command, read_file, write_file and list_files.`,
    ].join('\n');
  } catch {
    return [
      `SANDBOX: no Docker engine answers at ${engine.describe()}. Everything else works; sandbox tools answer`,
      `with an error and /v1/admin/sandbox/* with 503 until one does. To start a private engine (root):`,
      '',
      '  npm run sandbox:engine &   then   export DOCKER_HOST=unix:///tmp/agentdesk-engine/docker.sock',
    ].join('\n');
  }
}
