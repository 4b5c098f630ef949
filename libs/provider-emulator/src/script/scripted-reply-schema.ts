import { z } from 'zod';
import type { ScriptedReply } from './scripted-reply';

const nonNegativeInteger = z.int().nonnegative();

const replyMatchSchema = z.strictObject({
  provider: z.enum(['openai', 'anthropic', 'gemini']).optional(),
  model: z.string().min(1).optional(),
  stream: z.boolean().optional(),
});

const commonFields = {
  match: replyMatchSchema.optional(),
  times: z.union([z.int().positive(), z.literal('always')]).optional(),
  delayMs: z.number().nonnegative().optional(),
  headers: z.record(z.string(), z.string()).optional(),
};

const usageSchema = z.strictObject({
  inputTokens: nonNegativeInteger.optional(),
  outputTokens: nonNegativeInteger.optional(),
  cachedInputTokens: nonNegativeInteger.optional(),
  cacheCreationInputTokens: nonNegativeInteger.optional(),
  reasoningTokens: nonNegativeInteger.optional(),
});

const streamFaultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('cut'), afterChunks: nonNegativeInteger }),
  z.strictObject({ kind: z.literal('stall'), afterChunks: nonNegativeInteger }),
  z.strictObject({
    kind: z.literal('malformed'),
    afterChunks: nonNegativeInteger,
    data: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal('error-event'),
    afterChunks: nonNegativeInteger,
    status: z.int().min(400).max(599).optional(),
    type: z.string().min(1).optional(),
    message: z.string().optional(),
  }),
]);

const answerFields = {
  ...commonFields,
  usage: usageSchema.optional(),
  finishReason: z.enum(['stop', 'length', 'content-filter']).optional(),
  rawFinishReason: z.string().min(1).optional(),
  chunkSize: z.int().positive().optional(),
  chunkDelayMs: z.number().nonnegative().optional(),
  streamFault: streamFaultSchema.optional(),
};

/** Validates one {@link ScriptedReply}; unknown fields are rejected so typos do not pass silently. */
export const scriptedReplySchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('text'), text: z.string(), ...answerFields }),
    z.strictObject({ kind: z.literal('refusal'), refusal: z.string().min(1), ...answerFields }),
    z.strictObject({
      kind: z.literal('tool-calls'),
      toolCalls: z
        .array(
          z.strictObject({
            name: z.string().min(1),
            arguments: z.record(z.string(), z.unknown()),
            id: z.string().min(1).optional(),
          }),
        )
        .min(1),
      text: z.string().optional(),
      ...answerFields,
    }),
    z.strictObject({
      kind: z.literal('json'),
      value: z.unknown().optional(),
      text: z.string().optional(),
      ...answerFields,
    }),
    z.strictObject({
      kind: z.literal('error'),
      status: z.int().min(400).max(599),
      message: z.string().optional(),
      type: z.string().min(1).optional(),
      code: z.string().nullable().optional(),
      param: z.string().nullable().optional(),
      retryAfterSeconds: z.number().nonnegative().optional(),
      retryAfterMs: z.number().nonnegative().optional(),
      retryDelay: z
        .string()
        .regex(/^\d+(\.\d+)?s$/, 'a protobuf Duration such as "7s" or "0.5s"')
        .optional(),
      details: z.array(z.unknown()).optional(),
      ...commonFields,
    }),
    z.strictObject({ kind: z.literal('hang'), ...commonFields }),
  ])
  .superRefine((reply, context) => {
    if (reply.kind === 'json' && reply.value !== undefined && reply.text !== undefined) {
      context.addIssue({
        code: 'custom',
        message: "give either 'value' or 'text', not both",
        path: ['text'],
      });
    }
  });

/** The body of `POST /_emulator/script`: one reply or an array of them. */
export const scriptRequestSchema = z.union([z.array(scriptedReplySchema), scriptedReplySchema]);

// Compile-time proof that the hand-written, documented types and the schema describe the same thing.
type Parsed = z.infer<typeof scriptedReplySchema>;
type AssertAssignable<Source extends Target, Target> = Source;
export type _SchemaMatchesType = AssertAssignable<Parsed, ScriptedReply>;
export type _TypeMatchesSchema = AssertAssignable<ScriptedReply, Parsed>;

/** Parses replies given to `emulator.script()` or the control endpoint; throws a readable error otherwise. */
export function parseScriptedReplies(input: unknown): ScriptedReply[] {
  const result = scriptRequestSchema.safeParse(input);
  if (!result.success) {
    throw new TypeError(`Invalid scripted reply: ${z.prettifyError(result.error)}`);
  }
  return Array.isArray(result.data) ? result.data : [result.data];
}
