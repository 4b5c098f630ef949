import { userPrincipal } from '@agentdesk/authz';
import { describe, expect, it } from 'vitest';
import { navigationFor } from './navigation';

const hrefsOf = (role: 'admin' | 'viewer' | 'qa' | 'user') =>
  navigationFor(userPrincipal({ id: 'u', role })).map((item) => item.href);

describe('the console’s pages follow the caller’s scopes', () => {
  it.each(['admin', 'viewer'] as const)('a %s sees the sessions and the search', (role) => {
    expect(hrefsOf(role)).toEqual(expect.arrayContaining(['/sessions', '/search']));
  });

  it('an admin sees keys and audit; a viewer (no api-keys:read, no audit:read) sees neither', () => {
    expect(hrefsOf('admin')).toEqual(expect.arrayContaining(['/keys', '/audit']));
    expect(hrefsOf('viewer')).not.toContain('/keys');
    expect(hrefsOf('viewer')).not.toContain('/audit');
  });

  it.each(['admin', 'viewer'] as const)('a %s sees the lab and the sandbox', (role) => {
    expect(hrefsOf(role)).toEqual(expect.arrayContaining(['/lab', '/sandbox']));
  });

  it('an admin sees the console sign-ins; a viewer (no console-sessions:read) does not', () => {
    expect(hrefsOf('admin')).toContain('/console-sessions');
    expect(hrefsOf('viewer')).not.toContain('/console-sessions');
  });

  it.each(['admin', 'viewer', 'qa'] as const)('a %s sees the QA suites', (role) => {
    expect(hrefsOf(role)).toContain('/suites');
  });

  it('a qa sees every page a viewer sees, the suites among them, and no administrative page', () => {
    expect(hrefsOf('qa')).toEqual(
      expect.arrayContaining([...hrefsOf('viewer'), '/suites', '/lab', '/usage']),
    );
    for (const page of ['/keys', '/audit', '/console-sessions']) expect(hrefsOf('qa')).not.toContain(page);
  });

  it('a plain user sees no page', () => {
    expect(navigationFor(userPrincipal({ id: 'u', role: 'user' }))).toEqual([]);
  });
});
