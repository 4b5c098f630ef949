import { inject } from 'vitest';
import type { Engine } from './engines';
import { apiTestBaseImage } from './sandbox-engine.global-setup';

/**
 * The environment of an API with the sandbox on the test engine. Each suite and database engine
 * gets its own image tag, owner and pins, so suites running side by side never share state.
 */
export function sandboxTestEnvironment(suite: string, engine: Engine): Record<string, string> {
  const name = `api-${suite}-${engine}`;
  return {
    AGENTDESK_SANDBOX_ENABLED: 'true',
    DOCKER_HOST: inject('dockerHost'),
    AGENTDESK_SANDBOX_IMAGE: `agentdesk-${name}:latest`,
    AGENTDESK_SANDBOX_BASE_IMAGE: apiTestBaseImage,
    AGENTDESK_SANDBOX_OFFLINE_BASE: 'true',
    AGENTDESK_SANDBOX_OWNER: name,
    AGENTDESK_SANDBOX_WARM_POOL: '1',
    AGENTDESK_SANDBOX_MEMORY_MB: '64',
    AGENTDESK_SANDBOX_PIDS: '64',
    AGENTDESK_SANDBOX_CPUS: '0.5',
    AGENTDESK_SANDBOX_WORKSPACE_MB: '16',
  };
}
