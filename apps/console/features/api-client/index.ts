export {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  credentialHeaders,
  getFromApi,
  sendToApi,
  type ApiCredential,
  type QueryValues,
} from './server/api-client';
export {
  relayEventStream,
  relayFromApi,
  relayToApi,
  relayedRefusal,
  type RelayedCall,
} from './server/api-relay';
export {
  NO_STORE,
  consoleRefusal,
  consoleRefusalCodes,
  refusesTheAddress,
  type ConsoleRefusalReason,
} from './server/console-refusal';
