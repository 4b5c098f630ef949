/**
 * The key is posted to the console's own route handler, never stored by the page. `returnPath`, a
 * path already checked to be this console's, rides along so sign-in lands on the page asked for.
 */
export function SignInForm({ error, returnPath }: { error: string | undefined; returnPath?: string }) {
  return (
    <form method="post" action="/auth/sign-in" className="card sign-in">
      <h1>Sign in to the AgentDesk console</h1>
      <p className="muted">
        Paste an admin or viewer API key. The console trades it for a sign-in session and forgets it: this
        browser keeps only that session, in an encrypted HttpOnly cookie, and signing out ends it.
      </p>
      {error !== undefined && (
        <p role="alert" className="alert">
          {error}
        </p>
      )}
      {returnPath !== undefined && <input type="hidden" name="next" value={returnPath} />}
      <label htmlFor="apiKey">API key</label>
      <input
        id="apiKey"
        name="apiKey"
        type="password"
        autoComplete="off"
        spellCheck={false}
        required
        placeholder="adk_…"
      />
      <button type="submit">Sign in</button>
    </form>
  );
}
