import type { ReactNode } from 'react';
import { SignOutButton, type SignedIn } from '../../auth';
import { visibleText } from '../../visible-text';
import { navigationFor } from '../navigation';

/** Every signed-in page: a header with the pages this person may open, who they are, and sign-out. */
export function ConsoleShell({
  signedIn,
  current,
  children,
}: {
  signedIn: SignedIn;
  current: string;
  children: ReactNode;
}) {
  const { identity, principal } = signedIn;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">AgentDesk console</span>
        <nav aria-label="Console">
          <ul>
            {navigationFor(principal).map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={item.href === current ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {visibleText(identity.displayName)}{' '}
            <span className={`role role-${identity.role}`}>{identity.role}</span>
          </span>
          <SignOutButton />
        </div>
      </header>
      <main id="main">{children}</main>
    </>
  );
}
