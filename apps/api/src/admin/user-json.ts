import { z } from 'zod';
import type { User } from '@agentdesk/storage';

/** A user as the admin API returns it. */
export const userJsonSchema = z.object({
  id: z.string(),
  portalId: z.string().nullable(),
  externalId: z.string(),
  displayName: z.string().nullable(),
  createdAt: z.string(),
});
export type UserJson = z.infer<typeof userJsonSchema>;

export function toUserJson(user: User): UserJson {
  return {
    id: user.id,
    portalId: user.portalId,
    externalId: user.externalId,
    displayName: user.displayName,
    createdAt: user.createdAt.toISOString(),
  };
}
