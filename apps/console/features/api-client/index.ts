export {
  ApiRequestError,
  ApiUnavailableError,
  apiBaseUrl,
  getFromApi,
  type QueryValues,
} from './server/api-client';
