/** The fields of OpenAI's error body `{"error":{message,type,param,code}}`. */
export interface OpenAiErrorFields {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** A rejected request: status plus the error fields. */
export interface OpenAiRejection extends OpenAiErrorFields {
  status: number;
}

/** Builds the exact body OpenAI sends with an error status. */
export function openAiErrorBody(fields: OpenAiErrorFields): { error: OpenAiErrorFields } {
  return { error: { message: fields.message, type: fields.type, param: fields.param, code: fields.code } };
}

/** A 400 `invalid_request_error`, the shape of every request-validation failure. */
export function invalidRequest(
  message: string,
  param: string | null = null,
  code: string | null = null,
): OpenAiRejection {
  return { status: 400, message, type: 'invalid_request_error', param, code };
}

/** Typical OpenAI error type, code and message for a status, used when a scripted error leaves them out. */
export function defaultOpenAiError(status: number): OpenAiErrorFields {
  switch (status) {
    case 400:
      return { message: 'Invalid request.', type: 'invalid_request_error', param: null, code: null };
    case 401:
      return {
        message:
          'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      };
    case 403:
      return {
        message: 'You are not allowed to sample from this model.',
        type: 'invalid_request_error',
        param: null,
        code: null,
      };
    case 404:
      return {
        message: 'The model does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      };
    case 408:
      return { message: 'Request timed out.', type: 'timeout', param: null, code: null };
    case 409:
      return { message: 'Conflict.', type: 'invalid_request_error', param: null, code: null };
    case 422:
      return { message: 'Unprocessable entity.', type: 'invalid_request_error', param: null, code: null };
    case 429:
      return {
        message: 'Rate limit reached for requests.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      };
    case 503:
      return {
        message: 'The engine is currently overloaded, please try again later.',
        type: 'server_error',
        param: null,
        code: null,
      };
    default:
      return status >= 500
        ? {
            message: 'The server had an error while processing your request. Sorry about that!',
            type: 'server_error',
            param: null,
            code: null,
          }
        : { message: 'Invalid request.', type: 'invalid_request_error', param: null, code: null };
  }
}
