import { STATUS_CODES } from 'node:http';
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';

/** The `fetch` signature the official SDKs take as their `fetch` option. */
export type UpstreamFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A `fetch` for the provider SDKs and the pools behind it. */
export interface UpstreamHttp {
  readonly fetch: UpstreamFetch;
  /** Closes every pooled connection (the app is stopping). */
  close(): Promise<void>;
}

export interface UpstreamHttpOptions {
  /** Connections kept per upstream origin (the agent keeps one pool per origin). */
  readonly connectionsPerOrigin?: number;
  /** How long an idle connection stays open for the next request. */
  readonly keepAliveTimeoutMs?: number;
}

type BodyReadable = Dispatcher.ResponseData['body'];

/**
 * The answer of `upstreamHttp().fetch`: the part of WHATWG `Response` the SDKs read (status, ok,
 * headers, url, body as an async iterable of bytes, `json()`/`text()`/`arrayBuffer()`), over undici's
 * Node stream. Building a real `Response` would put a WHATWG stream in front of every body — most of
 * what makes the global `fetch` costly.
 */
class UpstreamResponse {
  readonly ok: boolean;
  readonly statusText: string;
  readonly redirected = false;
  readonly type = 'basic';

  constructor(
    readonly status: number,
    readonly headers: UpstreamHeaders,
    readonly body: BodyReadable,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.statusText = STATUS_CODES[status] ?? '';
  }

  get bodyUsed(): boolean {
    return this.body.bodyUsed;
  }

  json(): Promise<unknown> {
    return this.body.json();
  }

  text(): Promise<string> {
    return this.body.text();
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.body.arrayBuffer();
  }

  clone(): never {
    // No SDK path we configure clones (only the Anthropic SDK's middleware would).
    throw new TypeError('an upstream response cannot be cloned; read it once');
  }
}

/**
 * Response headers as the SDKs read them (`get`, `has`, iteration), over undici's record of
 * lower-cased names: a WHATWG `Headers` validates and sorts on every append and read.
 */
class UpstreamHeaders {
  readonly #values = new Map<string, string>();

  constructor(raw: Dispatcher.ResponseData['headers']) {
    for (const name in raw) {
      const value = raw[name];
      // Repeated headers join with ", " as in `Headers.get` (set-cookie is not read from providers).
      if (value !== undefined) this.#values.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: this) => void): void {
    for (const [name, value] of this.#values) callback(value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#values.entries();
  }

  keys(): IterableIterator<string> {
    return this.#values.keys();
  }

  values(): IterableIterator<string> {
    return this.#values.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/** Bodies sent as they are; anything else (form data, blobs, streams) goes through undici's `fetch`. */
function isPlainBody(body: RequestInit['body']): body is string | Uint8Array | null | undefined {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
}

/**
 * A `fetch` for the provider SDKs on one undici agent, which keeps a pool of keep-alive connections
 * per upstream origin. Requests with a string or byte body (every chat call) go through the agent's
 * `request()` and answer an `UpstreamResponse`; other bodies use undici's `fetch` on the same pools.
 * Redirects are not followed (provider APIs do not redirect; a 3xx reaches the SDK as an error).
 * Timeouts are the SDK's own (it aborts through `signal`), so undici's are off.
 */
export function upstreamHttp(options: UpstreamHttpOptions = {}): UpstreamHttp {
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? 256,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request || !isPlainBody(init.body))
      return undiciFetch(input as string, { ...(init as object), dispatcher: agent }) as Promise<Response>;
    const url = typeof input === 'string' ? new URL(input) : input;
    const answer = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: init.headers as Dispatcher.DispatchOptions['headers'],
      body: init.body ?? null,
      signal: init.signal ?? null,
    });
    const response = new UpstreamResponse(
      answer.statusCode,
      new UpstreamHeaders(answer.headers),
      answer.body,
      url.href,
    );
    // The SDKs read every body they are given; the cast is the interface they call (see the class).
    return response as unknown as Response;
  };
  return { fetch, close: () => agent.close() };
}
