import { ANONYMOUS_USER_ID } from '@agentdesk/authz';
import type { ModelCallOrigin } from '../../shared/metering/metered-call';

/**
 * The origin of one QA cell's model call, metered like the lab's (a suite run is the lab's work at
 * scale): the user who started the run is the end user. No key or portal: cells run after the
 * request that started them, on any replica.
 */
export function qaCellOrigin(startedBy: string, model: string, provider: string | null): ModelCallOrigin {
  return {
    source: 'lab-run',
    model,
    provider,
    apiKeyId: null,
    portalId: null,
    endUser: startedBy === ANONYMOUS_USER_ID ? { kind: 'anonymous' } : { kind: 'user', userId: startedBy },
  };
}
