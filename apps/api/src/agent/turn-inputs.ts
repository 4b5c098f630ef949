import { z } from 'zod';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { IDEMPOTENCY_KEY_HEADER } from '../http/header-names';
import { jsonSchemaObject, multilineText, singleLineText } from '../http/inputs';
import { rawHeaderValues } from '../http/raw-headers';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const text = multilineText(1_000_000).min(1, { error: 'must not be empty' });

// A plain union: two part kinds share `type: 'image'` (inline data or URL).
const contentPart = z.union([
  z.object({ type: z.literal('text'), text: multilineText(1_000_000) }).strict(),
  z
    .object({
      type: z.literal('image'),
      mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
      data: z.base64({ error: 'must be base64' }),
    })
    .strict(),
  z.object({ type: z.literal('image'), url: z.url({ protocol: /^https?$/ }) }).strict(),
]);

/** OpenAI's response_format shape, flat or wrapped; the schema is a JSON object within the schema limits. */
export const responseFormatSchema = z.union([
  z.object({ type: z.literal('text') }).strict(),
  z.object({ type: z.literal('json_object') }).strict(),
  z
    .object({
      type: z.literal('json_schema'),
      json_schema: z
        .object({
          name: singleLineText(64)
            .regex(/^[a-zA-Z0-9_-]+$/, { error: 'must be letters, digits, _ or -' })
            .optional(),
          description: multilineText(10_000).optional(),
          schema: jsonSchemaObject.optional(),
          strict: z.boolean().nullable().optional(),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      type: z.literal('json_schema'),
      schema: jsonSchemaObject,
      name: singleLineText(64)
        .regex(/^[a-zA-Z0-9_-]+$/, { error: 'must be letters, digits, _ or -' })
        .optional(),
      description: multilineText(10_000).optional(),
      strict: z.boolean().nullable().optional(),
    })
    .strict(),
]);

/**
 * `POST /v1/sessions/:id/messages`: the user's message (text, or text and image parts) and an
 * optional structured-output format for the answer. Strict: unknown fields are refused.
 */
export const sendMessageBody = z
  .object({
    content: z.union([
      text,
      z.array(contentPart).min(1, { error: 'must contain at least one part' }).max(64),
    ]),
    responseFormat: responseFormatSchema.optional(),
  })
  .strict();

export type SendMessageBody = z.output<typeof sendMessageBody>;

const idempotencyKeyRule = 'must be 1–200 visible ASCII characters';

/** `Idempotency-Key`: a retried request with the same key returns the same turn. */
const idempotencyKeySchema = z
  .string()
  .min(1, { error: idempotencyKeyRule })
  .max(200, { error: idempotencyKeyRule })
  .regex(/^[\x21-\x7e]+$/, { error: idempotencyKeyRule });

const idempotencyKeyPipe = new ZodValidationPipe(
  idempotencyKeySchema.optional(),
  'header',
  IDEMPOTENCY_KEY_HEADER,
);

/**
 * The request's `Idempotency-Key` (undefined when absent). Read from the raw header list: Node
 * would join two keys into one ("a, b"), and a request carrying two keys names no one request.
 */
export function readIdempotencyKey(rawHeaders: readonly string[]): string | undefined {
  const sent = rawHeaderValues(rawHeaders, IDEMPOTENCY_KEY_HEADER);
  if (sent.length > 1) {
    throw new ApiError(
      ApiErrorCode.ValidationFailed,
      `header.${IDEMPOTENCY_KEY_HEADER}: send it once (one key names one request); got ${sent.length}`,
    );
  }
  return idempotencyKeyPipe.transform(sent[0]);
}
