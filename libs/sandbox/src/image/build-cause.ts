import { type BuildHandle } from './build-handle';

/**
 * Why the lib started a build on its own: a session's sandbox was being created and the image was
 * missing. (Builds the caller starts itself — start-up, an admin's rebuild — it already knows about.)
 */
export interface BuildCause {
  readonly trigger: 'session';
  readonly sessionId: string;
}

/**
 * Told when a build starts on a session's path, with its handle (follow it, record it). Called once
 * per build this process started; a session joining a build already running is not reported again.
 * Its result is not awaited and its failures are only logged: the session's command never waits on it.
 */
export type BuildStartedListener = (handle: BuildHandle, cause: BuildCause) => void | Promise<void>;
