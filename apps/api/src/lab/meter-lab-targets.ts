import type { Principal } from '@agentdesk/authz';
import type { TargetResult } from '../shared/structured-output/target-result';
import { labTargetOrigin } from '../shared/metering/call-origins';
import { NO_TOKENS } from '../shared/metering/metered-call';
import type { UsageMeter } from '../shared/metering/usage-meter';

/**
 * Records the provider call of every lab target that made one. Targets refused before any call
 * (unknown model, a schema the provider cannot take) used no model and are not metered.
 */
export function meterLabTargets(meter: UsageMeter, actor: Principal, results: readonly TargetResult[]): void {
  for (const result of results) {
    const kind = result.error?.kind;
    if (kind === 'routing' || kind === 'schema-lowering') continue;
    meter.record(
      labTargetOrigin(actor, result.model, result.provider),
      result.status === 'ok' ? 'ok' : 'failed',
      result.usage ?? NO_TOKENS,
      result.latencyMs,
    );
  }
}
