import { z } from 'zod';
import { jsonSchemaObject, multilineText } from './inputs';

/** The rule of a `json_schema` format's name (OpenAI's: `[a-zA-Z0-9_-]`, at most 64). */
const formatName = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, { error: 'must be 1–64 letters, digits, _ or -' });

/** What a request without `json_schema.name` is told (after the field's path). */
export const MISSING_FORMAT_NAME =
  'is required (OpenAI’s response_format requires it): 1–64 letters, digits, _ or -, e.g. "answer"';

const formatDescription = multilineText(10_000).optional();
const formatStrict = z.boolean().nullable().optional();

/**
 * OpenAI's `json_schema` envelope. `name` is required, as OpenAI requires it; the requirement is a
 * refinement rather than a required key so that, inside a union (the agent turn's), a missing
 * name is reported as such instead of as "Invalid input" (zod reports one option only when the
 * others fail harder). The schema must compile: one that cannot would fail every answer.
 */
const jsonSchemaEnvelope = z
  .object({
    name: formatName.optional(),
    description: formatDescription,
    schema: jsonSchemaObject.optional(),
    strict: formatStrict,
  })
  .strict()
  .superRefine((envelope, context) => {
    if (envelope.name === undefined)
      context.addIssue({ code: 'custom', path: ['name'], message: MISSING_FORMAT_NAME });
  })
  // The documented shape says what the refinement enforces.
  .meta({ required: ['name'] });

/**
 * OpenAI's `response_format` (`ResponseFormatText | ResponseFormatJSONObject |
 * ResponseFormatJSONSchema`), one definition for `/v1/chat/completions` and the agent turn's
 * `responseFormat`. Strict: unknown fields are refused.
 */
export const responseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).strict(),
  z.object({ type: z.literal('json_object') }).strict(),
  z.object({ type: z.literal('json_schema'), json_schema: jsonSchemaEnvelope }).strict(),
]);

export type ResponseFormatInput = z.output<typeof responseFormatSchema>;

/**
 * AgentDesk's flat shorthand of a `json_schema` format (`{ type, schema, name? … }`, no envelope),
 * taken by the agent turn only: `schema` is required, `name` optional (the providers name it
 * `response`), every field under the envelope's rules.
 */
export const flatJsonSchemaFormatSchema = z
  .object({
    type: z.literal('json_schema'),
    schema: jsonSchemaObject,
    name: formatName.optional(),
    description: formatDescription,
    strict: formatStrict,
  })
  .strict();
