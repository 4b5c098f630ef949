import { z } from 'zod';

/** How a person signed in to the console: with an API key, or through single sign-on (OpenID Connect). */
export const consoleWaysIn = ['api-key', 'oidc'] as const;
export type ConsoleWayInJson = (typeof consoleWaysIn)[number];

/** Why a console session ended before its timeouts. */
export const consoleSessionEndReasons = [
  'sign-out',
  'key-revoked',
  'ended-by-admin',
  'signed-out-everywhere',
  'role-changed',
] as const;

/** `open`: usable; `ended`: signed out or ended (see `endReason`); `expired`: a timeout passed. */
export const consoleSessionStatuses = ['open', 'ended', 'expired'] as const;

/**
 * `POST /v1/console-sessions`: what the console's server tells the API about the browser that
 * signs in (the API itself only sees the console's address). Shown to admins in the session list;
 * the API validates it (one line each, at most 100 and 500 characters).
 */
export interface CreateConsoleSessionBody {
  clientAddress?: string;
  userAgent?: string;
}

/** A console session as the API returns it (its token never, except once to its creator). */
export const consoleSessionJsonSchema = z.object({
  id: z.string(),
  /** The person signed in, by id, external id and display name (null if the user row is gone). */
  user: z.object({ id: z.string(), externalId: z.string(), displayName: z.string().nullable() }).nullable(),
  userId: z.string(),
  wayIn: z.enum(consoleWaysIn),
  /** The key an API-key sign-in was made with. */
  apiKeyId: z.string().nullable(),
  status: z.enum(consoleSessionStatuses),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** When it ends unless used before (slides with use). */
  idleExpiresAt: z.string(),
  /** When it ends however much it is used. */
  absoluteExpiresAt: z.string(),
  clientAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  endedAt: z.string().nullable(),
  endReason: z.enum(consoleSessionEndReasons).nullable(),
});
export type ConsoleSessionJson = z.infer<typeof consoleSessionJsonSchema>;

/**
 * The answer to a sign-in: the session and its token, shown this once. The console seals the token
 * in its cookie and sends it back as `X-Console-Session`; the API keeps only its hash.
 */
export const createdConsoleSessionJsonSchema = z.object({
  session: consoleSessionJsonSchema,
  token: z.string(),
});
export type CreatedConsoleSessionJson = z.infer<typeof createdConsoleSessionJsonSchema>;

/** The answer to ending all of a user's sessions ("sign out everywhere"). */
export const endedConsoleSessionsJsonSchema = z.object({ ended: z.number().int().nonnegative() });
export type EndedConsoleSessionsJson = z.infer<typeof endedConsoleSessionsJsonSchema>;

/** The header the console's server sends a session token in. */
export const CONSOLE_SESSION_HEADER = 'x-console-session';
