import { errorBodySchema } from '@agentdesk/api-contract';
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
 * The console's only way to the API: one GET with the caller's key, the answer validated against
 * the shared contract. Every page goes through here, so the key is added in exactly one place.
 */
export async function getFromApi<Schema extends z.ZodType>(
  apiKey: string,
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
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiUnavailableError(`The API at ${apiBaseUrl()} cannot be reached`, { cause: error });
  }
  return readAnswer(response, path, schema);
}

/**
 * A state-changing call (POST with a JSON body, or DELETE) with the caller's key, the answer
 * validated like `getFromApi`'s. The caller's route handler has checked Origin and scope first.
 */
export async function sendToApi<Schema extends z.ZodType>(
  apiKey: string,
  request: { method: 'POST' | 'DELETE'; path: string; body?: unknown },
  schema: Schema,
): Promise<z.output<Schema>> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${apiKey}`,
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
