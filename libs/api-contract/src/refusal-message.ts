import { errorBodySchema } from './errors';

/**
 * What to tell a person about a refused call, from the answer's status and body: the API's own
 * message and code when the body is the API's error body, else the bare status.
 */
export function refusalMessageOf(status: number, body: unknown): string {
  const refusal = errorBodySchema.safeParse(body);
  if (refusal.success) return `${refusal.data.error.message} (${refusal.data.error.code})`;
  return `The request failed with HTTP ${status}`;
}
