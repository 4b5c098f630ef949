/** A rejected request: status, Anthropic error type and message. */
export interface AnthropicRejection {
  status: number;
  type: string;
  message: string;
}

/** Builds Anthropic's error body `{type:"error", error:{type,message}, request_id}`. */
export function anthropicErrorBody(
  type: string,
  message: string,
  requestId: string,
): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

/** A 400 `invalid_request_error`, the shape of every request-validation failure. */
export function invalidRequest(message: string): AnthropicRejection {
  return { status: 400, type: 'invalid_request_error', message };
}

/** Anthropic's error type and a typical message for a status (529 → `overloaded_error`). */
export function defaultAnthropicError(status: number): { type: string; message: string } {
  switch (status) {
    case 400:
      return { type: 'invalid_request_error', message: 'Invalid request.' };
    case 401:
      return { type: 'authentication_error', message: 'invalid x-api-key' };
    case 402:
      return {
        type: 'billing_error',
        message: 'Your credit balance is too low to access the Anthropic API.',
      };
    case 403:
      return {
        type: 'permission_error',
        message: 'Your API key does not have permission to use the specified resource.',
      };
    case 404:
      return { type: 'not_found_error', message: 'The requested resource could not be found.' };
    case 413:
      return { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' };
    case 429:
      return {
        type: 'rate_limit_error',
        message: 'Number of request tokens has exceeded your per-minute rate limit.',
      };
    case 504:
      return { type: 'timeout_error', message: 'Request timed out.' };
    case 529:
      return { type: 'overloaded_error', message: 'Overloaded' };
    default:
      return status >= 500
        ? { type: 'api_error', message: 'Internal server error' }
        : { type: 'invalid_request_error', message: 'Invalid request.' };
  }
}
