import {
  createdConsoleSessionJsonSchema,
  type CreateConsoleSessionBody,
  type CreatedConsoleSessionJson,
} from '@agentdesk/api-contract';
import { z } from 'zod';
import { ApiRequestError, sendToApi } from '../../api-client';
import type { SignInErrorCode } from './sign-in-errors';

/**
 * Opens the person's console session on the API with the key they typed (the one call the key is
 * used for besides `GET /v1/me`); the console keeps only the token it answers with.
 */
export function openConsoleSession(
  apiKey: string,
  browser: CreateConsoleSessionBody,
): Promise<CreatedConsoleSessionJson> {
  return sendToApi(
    { apiKey },
    { method: 'POST', path: '/v1/console-sessions', body: browser },
    createdConsoleSessionJsonSchema,
  );
}

/**
 * Ends the console session on the API (sign-out): `ended`, also when it had already ended (timed
 * out, revoked, ended by an admin), or `not-ended` when the API could not be reached or refused
 * otherwise — the session then lives until its idle timeout, and the person is told so.
 */
export async function endConsoleSession(token: string): Promise<'ended' | 'not-ended'> {
  try {
    await sendToApi(
      { consoleSession: token },
      { method: 'DELETE', path: '/v1/console-sessions/current' },
      z.undefined(),
    );
    return 'ended';
  } catch (error) {
    return error instanceof ApiRequestError && error.status === 401 ? 'ended' : 'not-ended';
  }
}

/** Why signing in with a key failed, from the API's answer to `GET /v1/me` or to opening the session. */
export function signInFailureOf(error: unknown): SignInErrorCode {
  if (error instanceof ApiRequestError && (error.status === 401 || error.status === 400))
    return 'invalid-key';
  if (error instanceof ApiRequestError && error.status === 403) return 'not-a-console-role';
  return 'api-unavailable';
}

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f]/g;

/**
 * The browser that signs in, as the console saw it, for the admins' list of sessions: its user agent,
 * and its address — the first `X-Forwarded-For` entry, which Next sets from the socket when no proxy
 * did (a client can write its own when none does: this is a hint for people, never a check).
 */
export function browserOf(headers: Headers): CreateConsoleSessionBody {
  const address = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  const userAgent = headers.get('user-agent')?.trim();
  return {
    ...(address !== undefined && /^[0-9A-Fa-f:.]{2,45}$/.test(address) ? { clientAddress: address } : {}),
    ...(userAgent !== undefined && userAgent !== ''
      ? // One line of at most 500 characters, as the API takes it.
        { userAgent: userAgent.replace(controlCharacters, ' ').slice(0, 500) }
      : {}),
  };
}

/** How long the cookie sealed at sign-in may live: until the session's absolute expiry (a minute at least). */
export function cookieLifetimeSeconds(absoluteExpiresAt: string, now: number): number {
  const seconds = Math.floor((Date.parse(absoluteExpiresAt) - now) / 1000);
  return Number.isFinite(seconds) ? Math.max(60, seconds) : 60;
}
