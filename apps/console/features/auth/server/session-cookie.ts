import { randomBytes } from 'node:crypto';
import type { SessionOptions } from 'iron-session';
import { consoleConfig } from '../../config/server/console-config';
import type { ConsoleIdentity } from './console-identity';

/**
 * What the sealed cookie holds: the token of the person's console session on the API (never sent to
 * browser JavaScript; the API keeps only its hash and can end it) and who it is. Never the API key:
 * a copy of the cookie must stop working when the session ends.
 */
export interface ConsoleSessionData {
  consoleSessionToken?: string;
  identity?: ConsoleIdentity;
}

// Without a configured secret, each console process seals with its own random one: a restart signs
// everyone out, which is the safe failure for a local tool. Set it to keep sessions across restarts.
// Kept on globalThis: the bundler may give route handlers and pages their own copy of this module.
const generatedSecretKey = Symbol.for('agentdesk.console.generated-session-secret');
const processGlobals = globalThis as typeof globalThis & { [generatedSecretKey]?: string };

function generatedSecret(): string {
  processGlobals[generatedSecretKey] ??= randomBytes(32).toString('base64url');
  return processGlobals[generatedSecretKey];
}

/** Eight hours, the API's default longest sign-in; the cookie set at sign-in lives as long as its session. */
const SIGN_IN_SECONDS = 8 * 60 * 60;

/** `ttlSeconds`: how long a cookie sealed now may live (the session's absolute expiry, at sign-in). */
export function consoleSessionOptions(ttlSeconds: number = SIGN_IN_SECONDS): SessionOptions {
  const config = consoleConfig();
  return {
    cookieName: 'agentdesk_console',
    password: config.sessionSecret ?? generatedSecret(),
    ttl: ttlSeconds,
    cookieOptions: {
      httpOnly: true,
      sameSite: 'strict',
      // Behind HTTPS set AGENTDESK_CONSOLE_SECURE_COOKIE=true; plain http://127.0.0.1 needs it off.
      secure: config.secureCookie,
      path: '/',
    },
  };
}
