import { z } from 'zod';
import type { ApiError } from './api-error';
import { ApiErrorCode } from './api-error';

/** The stable error body of every refusal. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ApiErrorCode),
    message: z.string(),
    requestId: z.string().nullable(),
  }),
});

/** The JSON body for an error. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Builds the body of an error answer. */
export function errorBody(error: ApiError, requestId: string | null): ErrorBody {
  return { error: { code: error.code, message: error.message, requestId } };
}
