import { SandboxError, type SandboxErrorCode } from './sandbox-error';

/** Socket-level failures: the engine is not there (or went away mid-call). */
const unreachableCodes = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EACCES',
  'ESOCKETTIMEDOUT',
]);

interface EngineErrorShape {
  code?: unknown;
  statusCode?: unknown;
  json?: unknown;
  message?: unknown;
}

/** The engine's own message ({"message": "..."} body) when there is one, else the error's. */
export function engineMessage(error: unknown): string {
  const shape = (error ?? {}) as EngineErrorShape;
  const json = shape.json as { message?: unknown } | null | undefined;
  if (json && typeof json.message === 'string') return json.message;
  if (typeof shape.message === 'string') return shape.message.replace(/^\(HTTP code \d+\) [^-]*- /, '');
  return String(error);
}

export function engineStatusCode(error: unknown): number | undefined {
  const status = (error as EngineErrorShape | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

export function isEngineUnreachable(error: unknown): boolean {
  const code = (error as EngineErrorShape | null)?.code;
  return typeof code === 'string' && unreachableCodes.has(code);
}

/**
 * The container itself is gone or stopped, whatever the call was about: a file call's 404 can name
 * the container ("No such container") rather than the path, and an exec in a stopped container is a
 * 409 ("Container … is not running"). Both mean "use a fresh container", not "no such file".
 */
function isContainerGone(status: number | undefined, message: string): boolean {
  return (
    (status === 404 && /^no such container/i.test(message)) ||
    (status === 409 && /^container \S+ is not running/i.test(message))
  );
}

/**
 * Turns whatever dockerode threw into a SandboxError. `what` names the operation for the message;
 * `notFound` is the code a 404 means in this context (an image, a container, a path).
 */
export function toSandboxError(
  error: unknown,
  what: string,
  notFound: SandboxErrorCode = 'engine-error',
): SandboxError {
  if (error instanceof SandboxError) return error;
  if (isEngineUnreachable(error)) {
    return new SandboxError(
      'engine-unavailable',
      `Docker engine unreachable while trying to ${what}: ${engineMessage(error)}. ` +
        'Start an engine (see libs/sandbox/README.md) or point DOCKER_HOST at one.',
      { cause: error },
    );
  }
  const status = engineStatusCode(error);
  const code: SandboxErrorCode = isContainerGone(status, engineMessage(error))
    ? 'container-missing'
    : status === 404
      ? notFound
      : 'engine-error';
  return new SandboxError(code, `${what} failed: ${engineMessage(error)}`, {
    cause: error,
    details: { statusCode: status },
  });
}
