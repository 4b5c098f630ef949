import { AuthzError, AuthzErrorCode } from '@agentdesk/authz';
import { BadRequestException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { StorageError, StorageErrorCode } from '@agentdesk/storage';
import { ApiError, ApiErrorCode } from './api-error';
import { fromAuthzError, fromStorageError } from './domain-errors';
import { httpStatusOf } from './http-status';
import { toApiError } from './to-api-error';

describe('error mapping', () => {
  it('gives every API error code one status', () => {
    const statuses = Object.fromEntries(
      Object.values(ApiErrorCode).map((code) => [code, httpStatusOf(code)]),
    );
    expect(statuses).toEqual({
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      END_USER_REQUIRED: 403,
      NOT_FOUND: 404,
      ROUTE_NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      REQUEST_TIMEOUT: 408,
      HEADERS_TOO_LARGE: 431,
      VALIDATION_FAILED: 400,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      CONFLICT: 409,
      SESSION_CLOSED: 409,
      IDEMPOTENCY_KEY_REUSED: 422,
      RATE_LIMITED: 429,
      NOT_READY: 503,
      INTERNAL: 500,
      UNKNOWN_MODEL: 400,
      PROVIDER_NOT_CONFIGURED: 503,
      UPSTREAM_FAILED: 502,
      UPSTREAM_TIMEOUT: 504,
    });
  });

  it('maps every storage and authz code, and a foreign resource like a missing one', () => {
    const storage = Object.values(StorageErrorCode).map((code) => [
      code,
      fromStorageError(new StorageError(code, 'session', 'x')).code,
    ]);
    expect(Object.fromEntries(storage)).toEqual({
      STORAGE_NOT_FOUND: 'NOT_FOUND',
      STORAGE_CONFLICT: 'CONFLICT',
      STORAGE_SESSION_CLOSED: 'SESSION_CLOSED',
      STORAGE_MESSAGE_NOT_PENDING: 'CONFLICT',
      STORAGE_TURN_IN_PROGRESS: 'CONFLICT',
      STORAGE_INVALID_CURSOR: 'VALIDATION_FAILED',
      STORAGE_IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
    });
    const authz = Object.values(AuthzErrorCode).map((code) => [
      code,
      fromAuthzError(new AuthzError(code, 'x')).code,
    ]);
    expect(Object.fromEntries(authz)).toEqual({
      AUTHZ_USER_MISMATCH: 'FORBIDDEN',
      AUTHZ_PORTAL_NOT_TRUSTED: 'FORBIDDEN',
      AUTHZ_INVALID_REQUESTED_USER_ID: 'VALIDATION_FAILED',
    });
  });

  it('turns framework errors into client errors and anything else into a 500 without its message', () => {
    expect(toApiError(new NotFoundException()).code).toBe('ROUTE_NOT_FOUND');
    expect(toApiError(new UnauthorizedException()).code).toBe('UNAUTHENTICATED');
    expect(toApiError(new BadRequestException('body: bad')).code).toBe('VALIDATION_FAILED');
    expect(
      toApiError(Object.assign(new Error('too big'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }))
        .code,
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(toApiError(Object.assign(new Error('no'), { statusCode: 415 })).code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const internal = toApiError(new Error('connection string postgres://user:secret@db'));
    expect(internal.code).toBe('INTERNAL');
    expect(internal.message).not.toContain('secret');
    const own = new ApiError(ApiErrorCode.RateLimited, 'slow down', { retryAfterSeconds: 3 });
    expect(toApiError(own)).toBe(own);
  });
});
