import { z } from 'zod';

/** Tokens of one model call (or a session's sum): thinking and cached are part of the provider's own counts. */
export const tokenUsageJsonSchema = z.object({
  input: z.number(),
  output: z.number(),
  thinking: z.number(),
  cached: z.number(),
});
export type TokenUsageJson = z.infer<typeof tokenUsageJsonSchema>;
