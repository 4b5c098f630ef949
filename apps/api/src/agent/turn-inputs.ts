import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER } from '../http/header-names';
import { multilineText } from '../http/inputs';
import { headerSentOnce } from '../http/raw-headers';
import { flatJsonSchemaFormatSchema, responseFormatSchema } from '../http/response-format';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { endUserNameBodyField } from '../auth/end-user-name';

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

/**
 * The answer's format: OpenAI's `response_format` (the same schema as `/v1/chat/completions`), or
 * AgentDesk's flat `json_schema` shorthand.
 */
const turnResponseFormat = z.union([responseFormatSchema, flatJsonSchemaFormatSchema]);

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
    responseFormat: turnResponseFormat.optional(),
    endUserName: endUserNameBodyField.optional(),
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
  return idempotencyKeyPipe.transform(
    headerSentOnce(rawHeaders, IDEMPOTENCY_KEY_HEADER, 'one key names one request'),
  );
}
