import type { ModelPrice } from '@agentdesk/storage';
import type { AuditedChange } from '../shared/audit/audited-change';

/** What adding a price version changed, for its audit record: the version and its prices, exactly. */
export function modelPriceChange(price: ModelPrice): AuditedChange {
  return {
    target: { kind: 'model-price', id: price.id },
    details: {
      model: price.model,
      provider: price.provider,
      inputMicrosPerMillion: price.inputMicrosPerMillion,
      cachedInputMicrosPerMillion: price.cachedInputMicrosPerMillion,
      outputMicrosPerMillion: price.outputMicrosPerMillion,
      thinkingMicrosPerMillion: price.thinkingMicrosPerMillion,
      effectiveFrom: price.effectiveFrom.toISOString(),
    },
  };
}
