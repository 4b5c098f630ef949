import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { z } from 'zod';
import { errorBodySchema } from '../errors/error-body';
import { openApiResponseSchemaOf } from './openapi-schema';

/** Names of the two security schemes in the OpenAPI document (either one authenticates). */
export const BEARER_SCHEME = 'bearer';
export const API_KEY_HEADER_SCHEME = 'api-key';
/** The console's own way in: a console session token in `X-Console-Session`. */
export const CONSOLE_SESSION_SCHEME = 'console-session';

const errorDescriptions: Record<number, string> = {
  400: 'Invalid body, query, path parameter or header (the message names the field)',
  401: 'Missing, malformed, unknown or revoked API key',
  403: 'The key’s role may not use this function',
  404: 'Not found (or not yours: the answer is the same)',
  409: 'Conflict',
  413: 'Body larger than the configured limit',
  422: 'The Idempotency-Key was already used with a different request',
  429: 'Rate limit exceeded (see Retry-After)',
};

/** Documents the authentication this route requires: `Authorization: Bearer <key>` or `X-API-Key`. */
export function ApiKeyAuthenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), ApiSecurity(API_KEY_HEADER_SCHEME));
}

/** Documents a route only the console's server calls, with a signed-in person's `X-Console-Session`. */
export function ConsoleSessionAuthenticated(): MethodDecorator & ClassDecorator {
  return ApiSecurity(CONSOLE_SESSION_SCHEME);
}

/** The success status and JSON body of a route (status also set on the handler). */
export function Returns(status: number, schema: z.ZodType | undefined, description: string): MethodDecorator {
  return applyDecorators(
    HttpCode(status),
    ApiResponse(
      schema === undefined
        ? { status, description }
        : { status, description, schema: openApiResponseSchemaOf(schema) },
    ),
  );
}

/** The error statuses a route can answer, all with the stable error body. */
export function Refuses(...statuses: number[]): MethodDecorator & ClassDecorator {
  const schema = openApiResponseSchemaOf(errorBodySchema);
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: errorDescriptions[status] ?? 'Error', schema }),
    ),
  );
}
