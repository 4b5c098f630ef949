import {
  rebuildRequestJsonSchema,
  repinRequestJsonSchema,
  type RebuildRequestJson,
} from '@agentdesk/api-contract';
import { z } from 'zod';
import { cursorSchema, pageSizeSchema } from '../http/inputs';

// The request bodies are part of the contract the console sends (@agentdesk/api-contract).
export const rebuildBody = rebuildRequestJsonSchema;
export type RebuildBody = RebuildRequestJson;
export const repinBody = repinRequestJsonSchema;

/** A sandbox build id as the rebuild route returns it (a UUID). */
export const buildIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    error: 'must be a build id as returned by the rebuild route (UUID)',
  });

/** A container id (12–64 hex digits) or one of our container names, as the containers list shows them. */
export const containerIdSchema = z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,199}$/, {
  error: 'must be a container id or name as listed by GET /v1/admin/sandbox/containers',
});

export const MAX_BUILD_PAGE_SIZE = 100;

export const listBuildsQuery = z
  .object({
    limit: pageSizeSchema(MAX_BUILD_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
  })
  .strict();
