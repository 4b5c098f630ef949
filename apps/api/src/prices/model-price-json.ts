import { microsToUsd, type ModelPriceJson } from '@agentdesk/api-contract';
import type { ModelPrice } from '@agentdesk/storage';

/** A stored price version as the API returns it; `current` when it is the model's price now. */
export function toModelPriceJson(price: ModelPrice, current: boolean): ModelPriceJson {
  return {
    id: price.id,
    model: price.model,
    provider: price.provider,
    inputUsdPerMillion: microsToUsd(price.inputMicrosPerMillion),
    cachedInputUsdPerMillion: microsToUsd(price.cachedInputMicrosPerMillion),
    outputUsdPerMillion: microsToUsd(price.outputMicrosPerMillion),
    thinkingUsdPerMillion: microsToUsd(price.thinkingMicrosPerMillion),
    effectiveFrom: price.effectiveFrom.toISOString(),
    createdAt: price.createdAt.toISOString(),
    createdBy: price.createdBy,
    current,
  };
}
