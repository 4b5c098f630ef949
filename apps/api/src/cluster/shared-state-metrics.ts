import { Gauge, type Registry } from 'prom-client';
import { rateLimitsStatus, type SharedState } from './shared-state';

/**
 * Where rate limits are counted, as gauges read at scrape time: an alert on
 * `agentdesk_rate_limits_per_process == 1` with Redis configured finds replicas that went on
 * without it (each then allows the full limit on its own).
 */
export function registerSharedStateMetrics(registry: Registry, state: SharedState): void {
  new Gauge({
    name: 'agentdesk_rate_limits_per_process',
    help: '1 while rate limits are counted in this process only (no Redis configured, or Redis unavailable), 0 while shared through Redis',
    registers: [registry],
    collect() {
      this.set(rateLimitsStatus(state).scope === 'per-process' ? 1 : 0);
    },
  });
  if (state.kind !== 'redis') return;
  new Gauge({
    name: 'agentdesk_redis_available',
    help: '1 while Redis answers within AGENTDESK_REDIS_COMMAND_TIMEOUT_MS, 0 while this process goes on without it',
    registers: [registry],
    collect() {
      this.set(state.availability.isAvailable ? 1 : 0);
    },
  });
}
