import { z } from 'zod';
import { refineSchemaLimits } from '../http/inputs';
import { responseFormatSchema } from '../http/response-format';

// A JSON Schema object within the providers' depth and size limits (400 naming the limit).
const jsonSchema = z.record(z.string(), z.unknown()).superRefine(refineSchemaLimits);

const textPart = z.object({ type: z.literal('text'), text: z.string() }).strict();
const imagePart = z
  .object({
    type: z.literal('image_url'),
    image_url: z
      .object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() })
      .strict(),
  })
  .strict();

const toolCall = z
  .object({
    id: z.string().min(1),
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1), arguments: z.string() }).strict(),
  })
  .strict();

const message = z.discriminatedUnion('role', [
  z
    .object({
      role: z.enum(['system', 'developer']),
      content: z.union([z.string(), z.array(textPart)]),
      name: z.string().optional(),
    })
    .strict(),
  z
    .object({
      role: z.literal('user'),
      content: z.union([z.string(), z.array(z.union([textPart, imagePart]))]),
      name: z.string().optional(),
    })
    .strict(),
  z
    .object({
      role: z.literal('assistant'),
      content: z.union([z.string(), z.array(textPart), z.null()]).optional(),
      tool_calls: z.array(toolCall).optional(),
      refusal: z.string().nullable().optional(),
      name: z.string().optional(),
      // Fields of a response message, which clients commonly append to the history as it came:
      // accepted as OpenAI accepts them (annotations ignored; audio and function_call only null).
      annotations: z.array(z.unknown()).optional(),
      audio: z.null().optional(),
      function_call: z.null().optional(),
    })
    .strict(),
  z
    .object({
      role: z.literal('tool'),
      tool_call_id: z.string().min(1),
      content: z.union([z.string(), z.array(textPart)]),
    })
    .strict(),
]);

const tool = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, _ or -'),
        description: z.string().optional(),
        parameters: jsonSchema.optional(),
        strict: z.boolean().nullable().optional(),
      })
      .strict(),
  })
  .strict();

/**
 * The subset of OpenAI's Chat Completions request that AgentDesk serves on every provider.
 * Sampling knobs that cannot be honoured everywhere (seed, top_p, penalties…) are accepted and
 * ignored, as OpenAI-compatible servers commonly do; anything unknown is refused the way OpenAI
 * refuses it.
 */
export const chatCompletionRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(message).min(1, 'must contain at least one message'),
    stream: z.boolean().nullable().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).strict().nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    max_tokens: z.number().int().positive().nullable().optional(),
    max_completion_tokens: z.number().int().positive().nullable().optional(),
    response_format: responseFormatSchema.optional(),
    tools: z.array(tool).optional(),
    tool_choice: z
      .union([
        z.enum(['auto', 'none', 'required']),
        z.object({ type: z.literal('function'), function: z.object({ name: z.string() }).strict() }).strict(),
      ])
      .optional(),
    parallel_tool_calls: z.boolean().optional(),
    n: z.literal(1, 'only n=1 is supported').nullable().optional(),
    user: z.string().optional(),
    seed: z.number().int().nullable().optional(),
    top_p: z.number().nullable().optional(),
    frequency_penalty: z.number().nullable().optional(),
    presence_penalty: z.number().nullable().optional(),
    stop: z
      .union([z.string(), z.array(z.string())])
      .nullable()
      .optional(),
    logprobs: z.boolean().nullable().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    store: z.boolean().nullable().optional(),
  })
  .strict();

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;
