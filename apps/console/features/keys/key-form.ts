import { apiKeyRoles } from '@agentdesk/api-contract';
import { z } from 'zod';

/**
 * What the create form sends to the console's route handler. Empty fields mean "not given"; the
 * API validates the result again and names any field it refuses (e.g. "send exactly one of userId
 * or externalId").
 */
export const createKeyFormSchema = z
  .object({
    role: z.enum(apiKeyRoles, { error: 'Role must be user, portal, viewer, qa or admin' }),
    label: z.string().max(1000),
    portalId: z.string().max(1000).optional(),
    trustClientUserId: z.boolean().optional(),
    userId: z.string().max(1000).optional(),
    externalId: z.string().max(1000).optional(),
    displayName: z.string().max(1000).optional(),
  })
  .strict();
export type CreateKeyForm = z.infer<typeof createKeyFormSchema>;

function given(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** The body of `POST /v1/admin/api-keys` for this form: a portal key or a key held by a user. */
export function toCreateKeyBody(form: CreateKeyForm): Record<string, unknown> {
  const label = form.label.trim();
  if (form.role === 'portal') {
    return {
      role: 'portal',
      label,
      portalId: form.portalId?.trim() ?? '',
      trustClientUserId: form.trustClientUserId === true,
    };
  }
  const body: Record<string, unknown> = { role: form.role, label };
  const userId = given(form.userId);
  const externalId = given(form.externalId);
  const displayName = given(form.displayName);
  if (userId !== undefined) body['userId'] = userId;
  if (externalId !== undefined) body['externalId'] = externalId;
  if (displayName !== undefined) body['displayName'] = displayName;
  return body;
}
