import { visibleText } from '../../visible-text';

/**
 * The single sign-on choice: a plain link to the console's own start route (which sends the
 * browser on to the API and the provider). No script: it works under the strict CSP as is.
 */
export function SsoSignIn({
  providerName,
  alone,
  returnPath,
}: {
  providerName: string;
  alone: boolean;
  /** The page asked for before sign-in (already checked: a path of this console). */
  returnPath: string | undefined;
}) {
  const start =
    returnPath === undefined ? '/auth/sso/start' : `/auth/sso/start?next=${encodeURIComponent(returnPath)}`;
  // The page's one h1 when the key form (which has its own) is not shown.
  const Heading = alone ? 'h1' : 'h2';
  return (
    <section className="card sign-in" aria-labelledby="sso-heading">
      <Heading id="sso-heading">{alone ? 'Sign in to the AgentDesk console' : 'Single sign-on'}</Heading>
      <p className="muted">Sign in with your company account; your role comes from your groups there.</p>
      <a className="button" href={start}>
        Sign in with {visibleText(providerName)}
      </a>
    </section>
  );
}
