export { ApiError, ApiErrorCode, UNAUTHENTICATED_MESSAGE, notFoundError } from './api-error';
export { ApiExceptionFilter } from './api-exception.filter';
export { errorBody, errorBodySchema, type ErrorBody } from './error-body';
export { httpStatusOf } from './http-status';
export { toApiError } from './to-api-error';
export { assertNever } from './assert-never';
