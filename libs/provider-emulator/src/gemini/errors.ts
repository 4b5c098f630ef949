/** A Gemini (Google RPC) error: HTTP code, canonical status name, message and typed details. */
export interface GeminiRejection {
  code: number;
  status: string;
  message: string;
  details?: unknown[];
}

/** Builds the body Google APIs send with an error: `{error:{code,message,status,details?}}`. */
export function geminiErrorBody(rejection: GeminiRejection): Record<string, unknown> {
  const error: Record<string, unknown> = {
    code: rejection.code,
    message: rejection.message,
    status: rejection.status,
  };
  if (rejection.details !== undefined && rejection.details.length > 0) error.details = rejection.details;
  return { error };
}

/** A 400 `INVALID_ARGUMENT`, the shape of every request-validation failure. */
export function invalidArgument(message: string, details?: unknown[]): GeminiRejection {
  return details === undefined
    ? { code: 400, status: 'INVALID_ARGUMENT', message }
    : { code: 400, status: 'INVALID_ARGUMENT', message, details };
}

/** A `google.rpc.RetryInfo` detail, e.g. `retryDelay: "7s"`. */
export function retryInfo(retryDelay: string): Record<string, unknown> {
  return { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay };
}

/** The canonical status name and a typical message for an HTTP status. */
export function defaultGeminiError(code: number): { status: string; message: string } {
  switch (code) {
    case 400:
      return { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' };
    case 401:
      return { status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' };
    case 403:
      return { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' };
    case 404:
      return { status: 'NOT_FOUND', message: 'Requested entity was not found.' };
    case 409:
      return { status: 'ABORTED', message: 'The operation was aborted.' };
    case 429:
      return { status: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' };
    case 499:
      return { status: 'CANCELLED', message: 'The operation was cancelled.' };
    case 501:
      return { status: 'UNIMPLEMENTED', message: 'Method not implemented.' };
    case 503:
      return { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' };
    case 504:
      return { status: 'DEADLINE_EXCEEDED', message: 'Deadline expired before operation could complete.' };
    default:
      return code >= 500
        ? {
            status: 'INTERNAL',
            message:
              'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
          }
        : { status: 'FAILED_PRECONDITION', message: 'Precondition check failed.' };
  }
}
