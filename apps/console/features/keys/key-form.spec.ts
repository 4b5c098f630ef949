import { describe, expect, it } from 'vitest';
import { createKeyFormSchema, toCreateKeyBody } from './key-form';

describe('the create-key form becomes the API’s body', () => {
  it('a portal key names its portal and whether it trusts client user ids', () => {
    expect(
      toCreateKeyBody({
        role: 'portal',
        label: ' shop ',
        portalId: 'p1',
        trustClientUserId: true,
        externalId: 'x',
      }),
    ).toEqual({ role: 'portal', label: 'shop', portalId: 'p1', trustClientUserId: true });
  });

  it.each(['user', 'viewer', 'admin'] as const)('a %s key drops empty fields', (role) => {
    expect(
      toCreateKeyBody({ role, label: 'qa', userId: '  ', externalId: 'ext-1', displayName: '' }),
    ).toEqual({
      role,
      label: 'qa',
      externalId: 'ext-1',
    });
  });

  it('refuses an unknown role or unknown fields', () => {
    expect(createKeyFormSchema.safeParse({ role: 'root', label: 'x' }).success).toBe(false);
    expect(createKeyFormSchema.safeParse({ role: 'user', label: 'x', scopes: ['*'] }).success).toBe(false);
  });
});
