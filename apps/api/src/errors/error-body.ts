import { errorBodySchema, type ErrorBody } from '@agentdesk/api-contract';
import type { ApiError } from './api-error';

export { errorBodySchema, type ErrorBody };

/** Builds the body of an error answer. */
export function errorBody(error: ApiError, requestId: string | null): ErrorBody {
  return { error: { code: error.code, message: error.message, requestId } };
}
