import { z } from 'zod';

/** Every variable the console reads, with what it is for (the README's table lists the same). */
const consoleEnvironmentSchema = z.object({
  AGENTDESK_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://127.0.0.1:3000' })
    .default('http://127.0.0.1:3000')
    .transform((url) => url.replace(/\/+$/, '')),
  AGENTDESK_CONSOLE_SESSION_SECRET: z
    .string()
    .optional()
    .transform((secret) => (secret === '' ? undefined : secret))
    .refine((secret) => secret === undefined || secret.length >= 32, {
      error: 'must be at least 32 characters long (or unset: a random secret per process)',
    }),
  AGENTDESK_CONSOLE_SECURE_COOKIE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
});

/** The console's settings, read and checked once. */
export interface ConsoleConfig {
  /** Where the console's server finds the API (the browser never calls the API directly). */
  readonly apiBaseUrl: string;
  /** Seals the sign-in cookie; undefined: each process uses a random one (a restart signs out). */
  readonly sessionSecret: string | undefined;
  /** Behind HTTPS, mark the cookie Secure; plain http://127.0.0.1 needs it off. */
  readonly secureCookie: boolean;
}

/** A setting that cannot work; the message lists every problem, one per line. */
export class ConsoleConfigError extends Error {
  override readonly name = 'ConsoleConfigError';
}

/** Parses the console's settings from an environment; throws `ConsoleConfigError` naming each bad variable. */
export function parseConsoleConfig(environment: Readonly<Record<string, string | undefined>>): ConsoleConfig {
  const parsed = consoleEnvironmentSchema.safeParse({
    AGENTDESK_API_URL: environment['AGENTDESK_API_URL'],
    AGENTDESK_CONSOLE_SESSION_SECRET: environment['AGENTDESK_CONSOLE_SESSION_SECRET'],
    AGENTDESK_CONSOLE_SECURE_COOKIE: environment['AGENTDESK_CONSOLE_SECURE_COOKIE'],
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConsoleConfigError(`Invalid console configuration:\n${problems.join('\n')}`);
  }
  return {
    apiBaseUrl: parsed.data.AGENTDESK_API_URL,
    sessionSecret: parsed.data.AGENTDESK_CONSOLE_SESSION_SECRET,
    secureCookie: parsed.data.AGENTDESK_CONSOLE_SECURE_COOKIE,
  };
}

// Kept on globalThis: the bundler may give route handlers and pages their own copy of this module.
const loadedConfigKey = Symbol.for('agentdesk.console.config');
const processGlobals = globalThis as typeof globalThis & { [loadedConfigKey]?: ConsoleConfig };

/**
 * The process's settings: read from `process.env` once — at start, by `instrumentation.ts`, so a
 * bad setting stops `next start` instead of failing the first sign-in — and never again.
 */
export function consoleConfig(): ConsoleConfig {
  processGlobals[loadedConfigKey] ??= parseConsoleConfig(process.env);
  return processGlobals[loadedConfigKey];
}
