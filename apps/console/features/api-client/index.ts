export {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  getFromApi,
  sendToApi,
  type QueryValues,
} from './server/api-client';
