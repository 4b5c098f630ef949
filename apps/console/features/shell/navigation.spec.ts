import { userPrincipal } from '@agentdesk/authz';
import { describe, expect, it } from 'vitest';
import { navigationFor } from './navigation';

describe('the console’s pages follow the caller’s scopes', () => {
  it.each(['admin', 'viewer'] as const)('a %s sees the sessions', (role) => {
    expect(navigationFor(userPrincipal({ id: 'u', role })).map((item) => item.href)).toContain('/sessions');
  });

  it.each(['admin', 'viewer'] as const)('a %s sees the lab and the sandbox', (role) => {
    expect(navigationFor(userPrincipal({ id: 'u', role })).map((item) => item.href)).toEqual(
      expect.arrayContaining(['/lab', '/sandbox']),
    );
  });

  it('a plain user sees no page', () => {
    expect(navigationFor(userPrincipal({ id: 'u', role: 'user' }))).toEqual([]);
  });
});
