import { randomBytes } from 'node:crypto';
import type { SessionOptions } from 'iron-session';
import { consoleConfig } from '../../config/server/console-config';
import type { ConsoleIdentity } from './console-identity';

/** What the sealed cookie holds: the API key (never sent to browser JavaScript) and who it is. */
export interface ConsoleSessionData {
  apiKey?: string;
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

/** Eight hours: a working day; the API key itself may live longer, the console sign-in does not. */
const SIGN_IN_SECONDS = 8 * 60 * 60;

export function consoleSessionOptions(): SessionOptions {
  const config = consoleConfig();
  return {
    cookieName: 'agentdesk_console',
    password: config.sessionSecret ?? generatedSecret(),
    ttl: SIGN_IN_SECONDS,
    cookieOptions: {
      httpOnly: true,
      sameSite: 'strict',
      // Behind HTTPS set AGENTDESK_CONSOLE_SECURE_COOKIE=true; plain http://127.0.0.1 needs it off.
      secure: config.secureCookie,
      path: '/',
    },
  };
}
