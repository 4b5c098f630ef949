import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleMessages } from './anthropic/handle-messages';
import { controlPrefix, handleControl } from './control/handle-control';
import type { EmulatorContext } from './emulator-context';
import { geminiRoute, handleGenerateContent } from './gemini/handle-generate-content';
import { splitUrl, type Exchange } from './http/exchange';
import { BodyTooLargeError, readBody } from './http/read-body';
import { sendJson } from './http/respond';
import { handleChatCompletions } from './openai/handle-chat-completions';
import { handleListModels } from './openai/handle-models';

/** Creates the (not yet listening) HTTP server that routes every request of the emulator. */
export function createEmulatorServer(context: EmulatorContext): Server {
  const server = createServer((request, response) => {
    handleRequest(request, response, context).catch((error: unknown) => {
      // A bug in the emulator must surface in the test as a 500, not as a hung request.
      if (!response.headersSent) {
        sendJson(response, 500, { error: { message: `provider emulator failure: ${String(error)}` } });
      } else {
        response.destroy();
      }
    });
  });
  // Streams may idle for long on purpose (stalls, slow chunks); the client decides when to give up.
  server.requestTimeout = 0;
  return server;
}

async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  context: EmulatorContext,
): Promise<void> {
  const method = request.method ?? 'GET';
  const { path, query } = splitUrl(request.url ?? '/');
  let bodyText = '';
  try {
    bodyText = method === 'GET' || method === 'HEAD' ? '' : await readBody(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) sendJson(response, 413, { error: { message: error.message } });
    else response.destroy();
    return;
  }
  const exchange: Exchange = { request, response, method, path, query, bodyText };

  if (path.startsWith(controlPrefix)) return handleControl(exchange, context);
  if (method === 'POST' && path === '/v1/chat/completions') return handleChatCompletions(exchange, context);
  if (method === 'POST' && path === '/v1/messages') return handleMessages(exchange, context);
  if (method === 'GET' && path === '/v1/models') return handleListModels(exchange, context);
  const gemini = method === 'POST' ? geminiRoute.exec(path) : null;
  if (gemini !== null)
    return handleGenerateContent(exchange, context, decodeURIComponent(gemini[2]!), gemini[3]!);

  // OpenAI's answer to unknown routes; the other SDKs only read the status.
  sendJson(response, 404, {
    error: {
      message: `Unknown request URL: ${method} ${path}. Please check the URL for typos.`,
      type: 'invalid_request_error',
      param: null,
      code: 'unknown_url',
    },
  });
}
