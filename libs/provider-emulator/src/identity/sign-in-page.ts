import type { IdentityAccount } from './identity-account';

/**
 * The identity provider's login page: one button per account (name, email, groups). It stands in
 * for a company's password + MFA page, so it asks for nothing else; the form posts back to the
 * same interaction URL.
 */
export function signInPage(interactionPath: string, accounts: readonly IdentityAccount[]): string {
  const buttons = accounts
    .map(
      (account) =>
        `<li><button type="submit" name="subject" value="${escapeHtml(account.subject)}">` +
        `<strong>${escapeHtml(account.name)}</strong> <span>${escapeHtml(account.email)}</span> ` +
        `<small>groups: ${escapeHtml(account.groups.join(', ') || 'none')}</small></button></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local identity provider — sign in</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
ul{list-style:none;padding:0}li{margin:.5rem 0}button{width:100%;text-align:left;padding:.75rem;font:inherit;cursor:pointer}
span,small{display:block;color:#444}</style></head>
<body><h1>Local identity provider</h1>
<p>A test OpenID provider on this machine (no passwords). Choose who signs in:</p>
<form method="post" action="${escapeHtml(interactionPath)}"><ul>${buttons}</ul></form>
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
