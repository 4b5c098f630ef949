import type { PageAccess } from '../../auth';

/**
 * What a page says to a role without its read scope, in place of its data. The navigation does not
 * offer such a page; this is for a typed or shared URL. `readWhat` finishes "Your role may not …".
 */
export function MissingScopeNotice({ access, readWhat }: { access: PageAccess; readWhat: string }) {
  return (
    <p className="notice">
      Your role ({access.signedIn.identity.role}) may not {readWhat}.
    </p>
  );
}
