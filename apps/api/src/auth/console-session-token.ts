import { hash, randomBytes } from 'node:crypto';

/**
 * Console session tokens look like `adcs_<43 base64url>` (256 random bits): the prefix makes a leaked
 * one recognizable, as `adk_` does for keys. The console seals the token in its cookie; the API
 * stores only its SHA-256, so a copy of the database opens no session.
 */
export const CONSOLE_SESSION_TOKEN_PREFIX = 'adcs_';

const tokenPattern = /^adcs_[A-Za-z0-9_-]{43}$/;

/** A new token and the hash to store. */
export function generateConsoleSessionToken(): { readonly token: string; readonly tokenHash: string } {
  const token = `${CONSOLE_SESSION_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashConsoleSessionToken(token) };
}

/** True for a string in the token format (anything else is refused without a lookup). */
export function isConsoleSessionToken(value: string): boolean {
  return tokenPattern.test(value);
}

/** The stored form of a token: SHA-256, lowercase hex. */
export function hashConsoleSessionToken(token: string): string {
  return hash('sha256', token, 'hex');
}
