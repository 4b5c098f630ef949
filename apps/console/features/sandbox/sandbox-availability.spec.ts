import { describe, expect, it } from 'vitest';
import { ApiRequestError, ApiUnavailableError } from '../api-client';
import { sandboxAvailability } from './sandbox-availability';

describe('what the sandbox page shows when the image cannot be read', () => {
  it('the sandbox when the API answered', () => {
    expect(sandboxAvailability(undefined)).toEqual({ kind: 'available' });
  });

  it('that the sandbox is turned off, with the API’s words, on a 404', () => {
    const message = 'The sandbox is disabled on this server (AGENTDESK_SANDBOX_ENABLED=false)';
    expect(sandboxAvailability(new ApiRequestError(404, 'NOT_FOUND', message))).toEqual({
      kind: 'disabled',
      message,
    });
  });

  it('the API’s 503 message when the Docker engine is unreachable', () => {
    const message = 'The sandbox is unavailable: connect ENOENT /var/run/docker.sock';
    expect(sandboxAvailability(new ApiRequestError(503, 'NOT_READY', message))).toEqual({
      kind: 'engine-unavailable',
      message,
    });
  });

  it.each([
    new ApiRequestError(403, 'FORBIDDEN', 'no'),
    new ApiRequestError(500, 'INTERNAL', 'bug'),
    new ApiUnavailableError('The API at http://127.0.0.1:1 cannot be reached'),
  ])('any other failure as it is (%s)', (error) => {
    expect(sandboxAvailability(error)).toEqual({ kind: 'unreadable', error });
  });
});
