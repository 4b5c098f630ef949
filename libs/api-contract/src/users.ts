import { z } from 'zod';

/** A user as the admin API returns it. */
export const userJsonSchema = z.object({
  id: z.string(),
  portalId: z.string().nullable(),
  externalId: z.string(),
  displayName: z.string().nullable(),
  createdAt: z.string(),
});
export type UserJson = z.infer<typeof userJsonSchema>;
