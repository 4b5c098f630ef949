export {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  getFromApi,
  type QueryValues,
} from './server/api-client';
export { consoleRefusal, relayEventStream, relayToApi, type RelayedCall } from './server/api-relay';
