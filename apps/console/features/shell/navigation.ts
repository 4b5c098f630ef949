import { can, type Principal, type Scope } from '@agentdesk/authz';

export interface NavigationItem {
  href: string;
  label: string;
  /** The scope the page needs: the item is shown only when `can()` grants it. */
  scope: Scope;
}

/** Every page of the console and the scope it needs (the pages of later phases join this list). */
const pages: readonly NavigationItem[] = [
  { href: '/sessions', label: 'Sessions', scope: 'sessions:read-any' },
  { href: '/search', label: 'Search', scope: 'messages:read-any' },
  { href: '/users', label: 'Users', scope: 'users:read' },
  { href: '/keys', label: 'Keys', scope: 'api-keys:read' },
  { href: '/audit', label: 'Audit', scope: 'audit:read' },
  { href: '/lab', label: 'Lab', scope: 'lab:read' },
  { href: '/suites', label: 'Suites', scope: 'suites:read' },
  { href: '/sandbox', label: 'Sandbox', scope: 'sandbox:read' },
  { href: '/usage', label: 'Usage', scope: 'usage:read' },
  { href: '/prices', label: 'Prices', scope: 'usage:read' },
  { href: '/console-sessions', label: 'Sign-ins', scope: 'console-sessions:read' },
];

/** The pages this person may open, from the same role → scopes table the API's guard reads. */
export function navigationFor(principal: Principal): NavigationItem[] {
  return pages.filter((page) => can(principal, page.scope));
}
