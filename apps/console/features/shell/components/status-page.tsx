import type { ReactNode } from 'react';
import { currentSignIn } from '../../auth';
import { ConsoleShell } from './console-shell';

/**
 * A page that says what went wrong (not found, the API down) in the console's own layout: with the
 * navigation for a signed-in person, so they can go on from here; a card with the way to sign in
 * for anyone else. `role="alert"` is left to the caller: a not-found page is no emergency.
 */
export async function StatusPage({ title, children }: { title: string; children: ReactNode }) {
  const signedIn = await currentSignIn();
  if (signedIn === null)
    return (
      <main id="main" className="centered">
        <div className="card">
          <h1>{title}</h1>
          {children}
          <p>
            <a href="/sign-in">Sign in to the console</a>
          </p>
        </div>
      </main>
    );
  return (
    <ConsoleShell signedIn={signedIn} current="">
      <div className="status-page">
        <h1>{title}</h1>
        {children}
      </div>
    </ConsoleShell>
  );
}
