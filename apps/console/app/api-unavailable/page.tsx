import { ApiUnavailablePage } from '../../features/shell';

export const dynamic = 'force-dynamic';

/**
 * Where `proxy.ts` rewrites a page load while the API cannot give it data (503 or 502, the address
 * unchanged). Opened directly, with the API up, it is not a page: 404.
 */
export default async function ApiUnavailable() {
  return <ApiUnavailablePage />;
}
