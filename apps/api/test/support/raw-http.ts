import net from 'node:net';

/** One answer read off a socket: status, lowercase headers and the body text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body parsed as JSON. */
  json<T = unknown>(): T;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads one answer. For what
 * `fetch` and `inject` cannot express: repeated headers, both framings at once, oversized request
 * lines, made-up methods. Requests should say `Connection: close` (the server may also close).
 */
/** `request` as text is sent as UTF-8; as bytes (e.g. `Buffer.from(text, 'latin1')`), exactly. */
export function rawHttp(baseUrl: string, request: string | Buffer): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname.replace(/^\[|\]$/g, ''), () => {
      socket.write(request);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** A request line and headers (`Connection: close` added), then the body as given. */
export function rawRequest(
  requestLine: string,
  headers: ReadonlyArray<readonly [string, string]>,
  body = '',
): string {
  const lines = [requestLine, ...headers.map(([name, value]) => `${name}: ${value}`), 'Connection: close'];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function parseResponse(text: string): RawResponse {
  const headerEnd = text.indexOf('\r\n\r\n');
  if (headerEnd === -1) throw new Error(`No complete HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...headerLines] = text.slice(0, headerEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(headerEnd + 4);
  if (headers['transfer-encoding'] === 'chunked') body = decodeChunked(body);
  return { status, headers, body, json: <T>() => JSON.parse(body) as T };
}

function decodeChunked(text: string): string {
  let decoded = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return decoded;
    decoded += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
