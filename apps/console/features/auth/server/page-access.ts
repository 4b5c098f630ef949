import { can, type Scope } from '@agentdesk/authz';
import { requireSignIn, type SignedIn } from './signed-in';

/** Who opened a page, and whether their role holds the scope the page reads its data with. */
export interface PageAccess {
  readonly signedIn: SignedIn;
  /** The scope the page was opened with (the navigation shows the page for the same one). */
  readonly scope: Scope;
  /** False: the page says the role may not read it, and asks the API for nothing. */
  readonly mayRead: boolean;
}

/**
 * The first line of every `page.tsx` under `app/` that shows data (`page-access.spec.ts` holds each
 * to it): the signed-in person — anyone else goes to the sign-in page — and whether their role may
 * read what the page shows. The API checks the same scope again; checking it here too means a role
 * without it gets the page's own sentence instead of an API refusal, and no audited read is tried.
 */
export async function requirePageScope(scope: Scope): Promise<PageAccess> {
  const signedIn = await requireSignIn();
  return { signedIn, scope, mayRead: can(signedIn.principal, scope) };
}
