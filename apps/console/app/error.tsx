'use client';

/**
 * What a page that failed to render shows: Next's built-in error page brings an inline `<style>`
 * without the request's nonce, which the Content-Security-Policy (proxy.ts) refuses. The error's
 * details stay in the server's log (the browser gets only Next's digest).
 */
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" className="centered">
      <div className="card" role="alert">
        <h1>This page could not be shown</h1>
        <p>
          Something failed on the console’s server.{' '}
          <button type="button" onClick={() => reset()}>
            Try again
          </button>{' '}
          or <a href="/sessions">go to the sessions</a>.
        </p>
      </div>
    </main>
  );
}
