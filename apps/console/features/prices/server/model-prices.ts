import {
  modelPriceJsonSchema,
  modelPriceListJsonSchema,
  type ModelPriceJson,
  type ModelPriceListJson,
  type NewModelPriceBody,
} from '@agentdesk/api-contract';
import { getFromApi, sendToApi, type ApiCredential } from '../../api-client';

/** Every price version, by model, newest first (the one in effect now marked `current`). */
export function listModelPrices(credential: ApiCredential): Promise<ModelPriceListJson> {
  return getFromApi(credential, '/v1/admin/model-prices', {}, modelPriceListJsonSchema);
}

/** Adds a price version (audited by the API). */
export function addModelPrice(credential: ApiCredential, body: NewModelPriceBody): Promise<ModelPriceJson> {
  return sendToApi(
    credential,
    { method: 'POST', path: '/v1/admin/model-prices', body },
    modelPriceJsonSchema,
  );
}
