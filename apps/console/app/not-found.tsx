import { StatusPage } from '../features/shell';

/**
 * The console's "not found" page (HTTP 404), for an unknown address and for a page whose session,
 * run or build the API does not know, in the console's layout with its navigation. Next's built-in
 * one brings an inline `<style>` without the request's nonce, which the Content-Security-Policy
 * (proxy.ts) rightly refuses.
 */
export default async function NotFound() {
  return (
    <StatusPage title="Page not found">
      <p>
        There is nothing at this address: the page does not exist, or what it shows (a session, a lab run, a
        build) does not exist or has been deleted.
      </p>
      <p>
        Check the address, or <a href="/sessions">go to the sessions</a>.
      </p>
    </StatusPage>
  );
}
