import { ApiRequestError } from '../api-client';

/** Whether this API has a sandbox to show, from how its image route answered. */
export type SandboxAvailability =
  | { kind: 'available' }
  /** 404 from the sandbox routes: this server runs without a sandbox (a configuration, not an outage). */
  | { kind: 'disabled'; message: string }
  /** 503: the sandbox is configured but its Docker engine cannot be reached right now. */
  | { kind: 'engine-unavailable'; message: string }
  /** Anything else the page cannot read; shown where the data would be. */
  | { kind: 'unreadable'; error: unknown };

export function sandboxAvailability(imageError: unknown | undefined): SandboxAvailability {
  if (imageError === undefined) return { kind: 'available' };
  if (imageError instanceof ApiRequestError && imageError.status === 404)
    return { kind: 'disabled', message: imageError.message };
  if (imageError instanceof ApiRequestError && imageError.status === 503)
    return { kind: 'engine-unavailable', message: imageError.message };
  return { kind: 'unreadable', error: imageError };
}
