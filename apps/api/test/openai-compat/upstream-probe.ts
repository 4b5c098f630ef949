import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the probe received, and when its connection closed. */
export interface ProbedRequest {
  readonly body: Record<string, unknown>;
  /** Resolves when the caller (AgentDesk) closes the connection. */
  readonly closed: Promise<void>;
}

/**
 * A stand-in OpenAI-protocol upstream that never finishes an answer: non-streaming requests hang,
 * streaming ones get one chunk and then stall. It shows whether AgentDesk cancels the upstream
 * call when its own client goes away (the emulator cannot report closed connections).
 */
export interface UpstreamProbe {
  /** Base URL for an OpenAI route, e.g. `http://127.0.0.1:1234/v1`. */
  readonly baseUrl: string;
  /** The next request, once it has arrived. */
  nextRequest(): Promise<ProbedRequest>;
  close(): Promise<void>;
}

export async function startUpstreamProbe(): Promise<UpstreamProbe> {
  const waiting: Array<(request: ProbedRequest) => void> = [];
  const arrived: ProbedRequest[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (part: string) => (raw += part));
    request.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
      if (body['stream'] === true) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = {
          id: 'chatcmpl-probe',
          object: 'chat.completion.chunk',
          created: 0,
          model: String(body['model']),
          choices: [{ index: 0, delta: { role: 'assistant', content: 'first words' }, finish_reason: null }],
        };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      }
      const probed = { body, closed };
      const waiter = waiting.shift();
      if (waiter) waiter(probed);
      else arrived.push(probed);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    nextRequest: () => {
      const first = arrived.shift();
      return first ? Promise.resolve(first) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
