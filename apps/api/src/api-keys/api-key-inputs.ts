import { auditReasonQueryField } from '../shared/audit/audit-reason';
import { z } from 'zod';
import { cursorSchema, idSchema, pageSizeSchema, queryBooleanSchema, singleLineText } from '../http/inputs';
import { MAX_PAGE_SIZE } from '@agentdesk/storage';
import { apiKeySortFields } from '@agentdesk/api-contract';
import { sortQueryFields } from '../http/list-sort';

const label = singleLineText(200).min(1, { error: 'must not be empty' });

/** A key for a portal: it acts for the end users it names when `trustClientUserId` is true. */
const portalKeyBody = z
  .object({
    role: z.literal('portal'),
    label,
    portalId: singleLineText(200).min(1, { error: 'must not be empty' }),
    trustClientUserId: z.boolean().optional(),
  })
  .strict();

/** A key held by one user: an existing one (`userId`) or a local user found or created by `externalId`. */
const userKeyBody = z
  .object({
    role: z.enum(['user', 'viewer', 'qa', 'admin']),
    label,
    userId: idSchema.optional(),
    externalId: singleLineText(256).min(1, { error: 'must not be empty' }).optional(),
    displayName: singleLineText(200).optional(),
  })
  .strict()
  .refine((body) => (body.userId === undefined) !== (body.externalId === undefined), {
    error: 'send exactly one of userId (an existing user) or externalId (a local user, created if new)',
  });

/** `POST /v1/admin/api-keys`. */
export const createApiKeyBody = z.discriminatedUnion('role', [portalKeyBody, userKeyBody], {
  error: 'role must be one of user, portal, viewer, qa, admin',
});

/** `GET /v1/admin/api-keys`. */
export const listApiKeysQuery = z
  .object({
    includeRevoked: queryBooleanSchema.optional(),
    ownerUserId: idSchema.optional().describe('Only the keys this user holds'),
    ...sortQueryFields(apiKeySortFields),
    limit: pageSizeSchema(MAX_PAGE_SIZE).optional(),
    cursor: cursorSchema.optional(),
    ...auditReasonQueryField,
  })
  .strict();
