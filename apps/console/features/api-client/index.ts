export {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  getFromApi,
  sendToApi,
  type ApiCredential,
  type QueryValues,
} from './server/api-client';
export { consoleRefusal, relayEventStream, relayToApi, type RelayedCall } from './server/api-relay';
