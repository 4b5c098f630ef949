import { errorBodySchema } from '@agentdesk/api-contract';
import type { z } from 'zod';

/** A read through one of the console's own route handlers (the key stays in the cookie, server side). */
export async function fetchFromConsole<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
): Promise<z.output<Schema>> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const refusal = errorBodySchema.shape.error
      .pick({ code: true, message: true })
      .safeParse((body as { error?: unknown } | undefined)?.error);
    throw new Error(
      refusal.success
        ? `${refusal.data.message} (${refusal.data.code})`
        : `The console answered ${response.status}`,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`The answer to ${path} does not match the console's contract`);
  return parsed.data;
}
