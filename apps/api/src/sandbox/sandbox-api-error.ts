import { isSandboxError } from '@agentdesk/sandbox';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { assertNever } from '../errors/assert-never';

/**
 * Maps a sandbox failure to one HTTP answer. An unreachable engine is a 503 whose message says what
 * is wrong and where the API looked; anything that is not a `SandboxError` is rethrown (a bug).
 */
export function toSandboxApiError(error: unknown): ApiError {
  if (!isSandboxError(error)) throw error;
  switch (error.code) {
    case 'engine-unavailable':
      return new ApiError(ApiErrorCode.NotReady, `The sandbox is unavailable: ${error.message}`, {
        cause: error,
      });
    case 'container-missing':
      return new ApiError(ApiErrorCode.NotFound, 'Sandbox container not found', { cause: error });
    case 'container-stopped':
      return new ApiError(ApiErrorCode.UpstreamFailed, `The sandbox container stopped: ${error.message}`, {
        cause: error,
      });
    case 'invalid-input':
    case 'invalid-path':
      return new ApiError(ApiErrorCode.ValidationFailed, error.message, { cause: error });
    case 'engine-error':
    case 'image-missing':
    case 'build-failed':
    case 'exec-timeout':
    case 'exec-cancelled':
    case 'out-of-memory':
    case 'file-not-found':
    case 'file-too-large':
      return new ApiError(ApiErrorCode.UpstreamFailed, `The Docker engine refused: ${error.message}`, {
        cause: error,
      });
    default:
      return assertNever(error.code, 'sandbox error code');
  }
}

/** Runs an engine call for a route; sandbox failures leave as their HTTP answer. */
export async function answeringSandboxErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toSandboxApiError(error);
  }
}
