import { AuthzErrorCode, type AuthzError } from '@agentdesk/authz';
import {
  CURSOR_OF_ANOTHER_SORT,
  StorageErrorCode,
  type StorageError,
  type StorageEntity,
} from '@agentdesk/storage';
import { END_USER_HEADER, IDEMPOTENCY_KEY_HEADER } from '../http/header-names';
import { ApiError, ApiErrorCode } from './api-error';
import { assertNever } from './assert-never';

/** Maps an authorization refusal. Exhaustive over `AuthzErrorCode`. */
export function fromAuthzError(error: AuthzError): ApiError {
  switch (error.code) {
    case AuthzErrorCode.UserMismatch:
    case AuthzErrorCode.PortalNotTrusted:
      return new ApiError(ApiErrorCode.Forbidden, error.message, { cause: error });
    case AuthzErrorCode.InvalidRequestedUserId:
      // Only the end-user header carries a requested user id: name it like every other refused field.
      return new ApiError(ApiErrorCode.ValidationFailed, `header.${END_USER_HEADER}: ${error.message}`, {
        cause: error,
      });
    default:
      return assertNever(error.code, 'authz error code');
  }
}

/** Maps a storage refusal. Exhaustive over `StorageErrorCode`. */
export function fromStorageError(error: StorageError): ApiError {
  switch (error.code) {
    case StorageErrorCode.NotFound:
      return new ApiError(ApiErrorCode.NotFound, `${entityName(error.entity)} not found`, { cause: error });
    case StorageErrorCode.Conflict:
      return new ApiError(ApiErrorCode.Conflict, error.message, { cause: error });
    case StorageErrorCode.SessionClosed:
      return new ApiError(ApiErrorCode.SessionClosed, 'The session is closed', { cause: error });
    case StorageErrorCode.MessageNotPending:
      return new ApiError(ApiErrorCode.Conflict, error.message, { cause: error });
    case StorageErrorCode.TurnInProgress:
      return new ApiError(ApiErrorCode.Conflict, error.message, { cause: error });
    case StorageErrorCode.IdempotencyKeyReused:
      return new ApiError(
        ApiErrorCode.IdempotencyKeyReused,
        `header.${IDEMPOTENCY_KEY_HEADER}: ${error.message}`,
        { cause: error },
      );
    case StorageErrorCode.InvalidCursor:
      return new ApiError(
        ApiErrorCode.ValidationFailed,
        error.message === CURSOR_OF_ANOTHER_SORT
          ? 'cursor: made for another sort order (sort and dir); start again from the first page, without a cursor'
          : 'cursor: not a cursor this API returned (pass nextCursor unchanged)',
        { cause: error },
      );
    default:
      return assertNever(error.code, 'storage error code');
  }
}

function entityName(entity: StorageEntity): string {
  switch (entity) {
    case 'user':
      return 'User';
    case 'api-key':
      return 'API key';
    case 'session':
      return 'Session';
    case 'message':
      return 'Message';
    case 'tool-result':
      return 'Tool result';
    case 'audit-entry':
      return 'Audit entry';
    case 'cursor':
      return 'Cursor';
    case 'structured-output-run':
      return 'Structured-output run';
    case 'sandbox-build':
      return 'Sandbox build';
    case 'console-session':
      return 'Console session';
    case 'model-price':
      return 'Model price';
    case 'qa-suite':
      return 'Suite';
    case 'qa-suite-version':
      return 'Suite version';
    case 'qa-run':
      return 'Suite run';
    case 'qa-run-cell':
      return 'Run cell';
    default:
      return assertNever(entity, 'storage entity');
  }
}
