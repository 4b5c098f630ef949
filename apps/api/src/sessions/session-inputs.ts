import { z } from 'zod';
import { MAX_MESSAGE_PAGE_SIZE } from '@agentdesk/storage';
import {
  cursorSchema,
  jsonObjectSchema,
  multilineText,
  pageSizeSchema,
  singleLineText,
} from '../http/inputs';
import { sessionCreatedRangeInOrder, sessionFilters } from '../shared/sessions/session-filters';
import { endUserNameBodyField } from '../auth/end-user-name';

const label = singleLineText(200);
const model = singleLineText(200).min(1, { error: 'must not be empty' });
const systemPrompt = multilineText(100_000);

/**
 * `POST /v1/sessions`. Strict: ownership (`userId`, `ownerUserId`), `role`, `status` and any other
 * unknown field are refused — the owner is always the server-side effective user.
 */
export const createSessionBody = z
  .object({
    label: label.optional(),
    model: model.nullable().optional(),
    systemPrompt: systemPrompt.nullable().optional(),
    metadata: jsonObjectSchema.optional(),
    endUserName: endUserNameBodyField.optional(),
  })
  .strict();

/** `PATCH /v1/sessions/:id`: rename (and change model, system prompt, metadata). */
export const updateSessionBody = z
  .object({
    label: label.optional(),
    model: model.nullable().optional(),
    systemPrompt: systemPrompt.nullable().optional(),
    metadata: jsonObjectSchema.optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'send at least one of label, model, systemPrompt, metadata',
  });

/** `POST /v1/sessions/:id/close` takes no body (an empty object is accepted too). */
export const closeSessionBody = z.union([z.undefined(), z.null(), z.object({}).strict()]);

/** `GET /v1/sessions` query. */
export const listSessionsQuery = z.object(sessionFilters).strict().superRefine(sessionCreatedRangeInOrder);

/** Transcript pages. */
export const listMessagesQuery = z
  .object({ limit: pageSizeSchema(MAX_MESSAGE_PAGE_SIZE).optional(), cursor: cursorSchema.optional() })
  .strict();
