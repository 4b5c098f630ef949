/** Every role an API key can carry, as data so the console can list them. */
export const roles = ['user', 'portal', 'viewer', 'qa', 'admin'] as const;

/**
 * What a key is for: `user` works on its own data; `portal` acts for the end users it names;
 * `viewer` is read-only QA across users; `qa` writes and runs structured-output test suites
 * (and uses the lab) without any administrative right; `admin` may do everything.
 */
export type Role = (typeof roles)[number];
