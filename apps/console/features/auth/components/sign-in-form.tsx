/** The key is posted to the console's own route handler, never stored by the page. */
export function SignInForm({ error }: { error: string | undefined }) {
  return (
    <form method="post" action="/auth/sign-in" className="card sign-in">
      <h1>Sign in to the AgentDesk console</h1>
      <p className="muted">
        Paste an admin or viewer API key. The console keeps it in an encrypted, HttpOnly cookie on this
        browser; pages never see it.
      </p>
      {error !== undefined && (
        <p role="alert" className="alert">
          {error}
        </p>
      )}
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
