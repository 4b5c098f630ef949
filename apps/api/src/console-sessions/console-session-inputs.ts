import { z } from 'zod';
import { MAX_PAGE_SIZE, type JsonObject } from '@agentdesk/storage';
import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { cursorSchema, idSchema, pageSizeSchema, queryBooleanSchema, singleLineText } from '../http/inputs';

/** `POST /v1/console-sessions` (the contract's `CreateConsoleSessionBody`): the browser the console saw. */
export const createConsoleSessionBody = z
  .object({
    clientAddress: singleLineText(100).min(1, { error: 'must not be empty' }).optional(),
    userAgent: singleLineText(500).min(1, { error: 'must not be empty' }).optional(),
  })
  .strict();

/**
 * What a refused sign-in's audit record keeps of its body: the browser the console saw, when the
 * body is valid (it is not validated before the credential is refused).
 */
export function signInAttemptDetails(body: unknown): JsonObject | null {
  const parsed = createConsoleSessionBody.safeParse(body ?? {});
  if (!parsed.success) return null;
  return {
    ...(parsed.data.clientAddress === undefined ? {} : { clientAddress: parsed.data.clientAddress }),
    ...(parsed.data.userAgent === undefined ? {} : { userAgent: parsed.data.userAgent }),
  };
}

/** `GET /v1/admin/console-sessions`: one user's or everyone's, open ones unless `includeEnded`. */
export const listConsoleSessionsQuery = z
  .object({
    userId: idSchema.optional(),
    includeEnded: queryBooleanSchema.optional(),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();
