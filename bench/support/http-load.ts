import { createRequire } from 'node:module';

/** What one autocannon run reports (the fields this benchmark reads; autocannon ships no types). */
interface AutocannonResult {
  readonly duration: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly '2xx': number;
  readonly latency: { readonly p50: number; readonly p99: number };
}

type Autocannon = (options: {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  pipelining: number;
  duration: number;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Requests answered in one timed run under constant load, and their latency. */
export interface LoadResult {
  readonly ok: number;
  readonly failed: number;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * `connections` keep-alive connections, one request in flight on each (no pipelining, as HTTP
 * clients send them), posting `body` to `url` for `durationMs`. The load generator is autocannon: its
 * raw HTTP client costs the machine far less per request than the SDK, leaving the CPUs to the servers.
 */
export async function constantLoad(
  url: string,
  headers: Record<string, string>,
  body: string,
  connections: number,
  durationMs: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections,
    pipelining: 1,
    duration: durationMs / 1000,
  });
  return {
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}
