/**
 * The console's own "not found" page: Next's built-in one brings an inline `<style>` without the
 * request's nonce, which the Content-Security-Policy (proxy.ts) rightly refuses.
 */
export default function NotFound() {
  return (
    <main id="main" className="centered">
      <div className="card">
        <h1>Page not found</h1>
        <p>
          There is no page at this address. <a href="/sessions">Go to the sessions</a>
        </p>
      </div>
    </main>
  );
}
