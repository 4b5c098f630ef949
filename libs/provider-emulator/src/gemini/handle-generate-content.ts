import { receiveRequest, type EmulatorContext } from '../emulator-context';
import { geminiConversation } from '../conversation/gemini-conversation';
import { headerValue, type Exchange } from '../http/exchange';
import { sendJson } from '../http/respond';
import { randomToken } from '../ids';
import { type JsonObject } from '../json';
import { executeReply, type ReplyRenderer } from '../reply/execute-reply';
import type { JsonRequest } from '../reply/request-facts';
import { variationRequest } from '../variation/structured-variation';
import { defaultGeminiError, geminiErrorBody, retryInfo } from './errors';
import { responseBody, responseChunks, type ResponseIdentity } from './response-body';
import { geminiFrame } from './stream';
import { configField, generationConfigOf, validateGenerateContentRequest } from './validate-request';

/** The Gemini route: `/{v1beta|v1}/models/{model}:{generateContent|streamGenerateContent}`. */
export const geminiRoute = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

const jsonContentType = 'application/json; charset=UTF-8';

/**
 * `generateContent` and `streamGenerateContent`. With `?alt=sse` the stream is SSE; without it
 * the API streams one JSON array, which is sent here as a single array body.
 */
export async function handleGenerateContent(
  exchange: Exchange,
  context: EmulatorContext,
  model: string,
  method: string,
): Promise<void> {
  const streaming = method === 'streamGenerateContent';
  const sse = streaming && exchange.query.alt === 'sse';
  const requestId = randomToken(24);
  const { parsed, body } = receiveRequest(context, exchange, 'gemini', requestId, () => ({
    model,
    stream: streaming,
  }));

  const apiKey = headerValue(exchange.request, 'x-goog-api-key') ?? exchange.query.key;
  const rejection = validateGenerateContentRequest(apiKey, parsed);
  if (rejection !== undefined) {
    sendJson(exchange.response, rejection.code, geminiErrorBody(rejection), {}, jsonContentType);
    return;
  }

  const identity: ResponseIdentity = { responseId: requestId, modelVersion: model };
  const renderer: ReplyRenderer = {
    baseHeaders: {},
    jsonContentType,
    streamContentType: 'text/event-stream',
    error: (reply) => {
      const defaults = defaultGeminiError(reply.status);
      const headers: Record<string, string> = {};
      if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
      if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
      const retryDelay =
        reply.retryDelay ??
        (reply.retryAfterSeconds !== undefined ? `${reply.retryAfterSeconds}s` : undefined);
      const details = [
        ...(retryDelay === undefined ? [] : [retryInfo(retryDelay)]),
        ...(reply.details ?? []),
      ];
      return {
        status: reply.status,
        headers,
        body: geminiErrorBody({
          code: reply.status,
          status: reply.type ?? defaults.status,
          message: reply.message ?? defaults.message,
          details,
        }),
      };
    },
    // A non-SSE streamGenerateContent answers with the array of chunks.
    answerBody: (plan) => (streaming ? responseChunks(plan, identity) : responseBody(plan, identity)),
    streamFrames: (plan) => responseChunks(plan, identity).map((chunk) => geminiFrame(JSON.stringify(chunk))),
    streamErrorFrame: (fault) => {
      const code = fault.status ?? 500;
      const defaults = defaultGeminiError(code);
      return geminiFrame(
        JSON.stringify(
          geminiErrorBody({
            code,
            status: fault.type ?? defaults.status,
            message: fault.message ?? defaults.message,
          }),
        ),
      );
    },
    malformedFrame: (data) => geminiFrame(data),
  };

  await executeReply({
    response: exchange.response,
    reply: context.queue.take({ provider: 'gemini', model, stream: streaming }),
    stream: sse,
    facts: {
      json: jsonRequestOf(generationConfigOf(body)),
      conversation: geminiConversation(body),
      requestCharacters: exchange.bodyText.length,
      variation: variationRequest(context.variation, model, exchange.bodyText),
    },
    defaultChunkSize: context.defaultChunkSize,
    renderer,
  });
}

function jsonRequestOf(config: JsonObject): JsonRequest {
  const mimeType = configField(config, 'responseMimeType');
  const schema = configField(config, 'responseJsonSchema') ?? configField(config, 'responseSchema');
  if (mimeType === 'text/x.enum' && schema !== undefined) return { kind: 'enum-text', schema };
  if (mimeType !== 'application/json') return { kind: 'none' };
  return schema === undefined ? { kind: 'object' } : { kind: 'schema', schema };
}
