import { CONSOLE_SESSION_HEADER, errorBodySchema } from '@agentdesk/api-contract';
import type { z } from 'zod';
import { consoleConfig } from '../../config/server/console-config';

/** Where the console finds the API (server side only: the browser never calls the API directly). */
export function apiBaseUrl(): string {
  return consoleConfig().apiBaseUrl;
}

/** The API answered with a refusal: its status, stable code and message, shown to the admin as is. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The API could not be reached, or answered something that is not its contract. */
export class ApiUnavailableError extends Error {
  override readonly name = 'ApiUnavailableError';
}

export type QueryValues = Readonly<Record<string, string | undefined>>;

/**
 * How the console's server authenticates a call: the signed-in person's console session (every
 * page and action), or the API key someone is signing in with (the sign-in alone, which trades it
 * for a session and forgets it). The browser never holds either.
 */
export type ApiCredential =
  | { readonly consoleSession: string }
  | { readonly apiKey: string }
  /** No credential: the public single sign-on routes (their code is their credential). */
  | { readonly publicRoute: true };

/** The one place a credential becomes a header. */
export function credentialHeaders(credential: ApiCredential): Record<string, string> {
  if ('publicRoute' in credential) return {};
  return 'apiKey' in credential
    ? { authorization: `Bearer ${credential.apiKey}` }
    : { [CONSOLE_SESSION_HEADER]: credential.consoleSession };
}

/**
 * The console's only way to the API: one GET with the caller's credential, the answer validated
 * against the shared contract. Every page goes through here, so the credential is added in exactly one place.
 */
export async function getFromApi<Schema extends z.ZodType>(
  credential: ApiCredential,
  path: string,
  query: QueryValues,
  schema: Schema,
): Promise<z.output<Schema>> {
  const url = new URL(`${apiBaseUrl()}${path}`);
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, value);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { ...credentialHeaders(credential), accept: 'application/json' },
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiUnavailableError(`The API at ${apiBaseUrl()} cannot be reached`, { cause: error });
  }
  return readAnswer(response, path, schema);
}

/**
 * A state-changing call (POST or PUT with a JSON body, or DELETE) with the caller's credential, the answer
 * validated like `getFromApi`'s. The caller's route handler has checked Origin and scope first.
 */
export async function sendToApi<Schema extends z.ZodType>(
  credential: ApiCredential,
  request: { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown },
  schema: Schema,
): Promise<z.output<Schema>> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${request.path}`, {
      method: request.method,
      headers: {
        ...credentialHeaders(credential),
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiUnavailableError(`The API at ${apiBaseUrl()} cannot be reached`, { cause: error });
  }
  return readAnswer(response, request.path, schema);
}

async function readAnswer<Schema extends z.ZodType>(
  response: Response,
  path: string,
  schema: Schema,
): Promise<z.output<Schema>> {
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const refusal = errorBodySchema.safeParse(body);
    if (refusal.success)
      throw new ApiRequestError(response.status, refusal.data.error.code, refusal.data.error.message);
    throw new ApiUnavailableError(`The API answered ${response.status} without its error body`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiUnavailableError(`The API's answer to ${path} does not match the console's contract`);
  return parsed.data;
}
