/** Every role an API key can carry, as data so the console can list them. */
export const roles = ['user', 'portal', 'viewer', 'admin'] as const;

/**
 * What a key is for: `user` works on its own data; `portal` acts for the end users it names;
 * `viewer` is read-only QA across users; `admin` may do everything.
 */
export type Role = (typeof roles)[number];
