import { userPrincipal } from '@agentdesk/authz';
import { describe, expect, it } from 'vitest';
import { navigationFor } from './navigation';

describe('the console’s pages follow the caller’s scopes', () => {
  it.each(['admin', 'viewer'] as const)('a %s sees the sessions', (role) => {
    expect(navigationFor(userPrincipal({ id: 'u', role })).map((item) => item.href)).toEqual(['/sessions']);
  });

  it('a plain user sees no page', () => {
    expect(navigationFor(userPrincipal({ id: 'u', role: 'user' }))).toEqual([]);
  });
});
