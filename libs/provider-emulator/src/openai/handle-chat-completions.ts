import { receiveRequest, type EmulatorContext } from '../emulator-context';
import { headerValue, type Exchange } from '../http/exchange';
import { sendJson } from '../http/respond';
import { randomToken, unixSeconds } from '../ids';
import { openAiConversation } from '../conversation/openai-conversation';
import { isRecord, stringOrUndefined } from '../json';
import { executeReply, type ReplyRenderer } from '../reply/execute-reply';
import type { JsonRequest } from '../reply/request-facts';
import { variationRequest } from '../variation/structured-variation';
import { completionBody, type CompletionIdentity } from './completion-body';
import { defaultOpenAiError, openAiErrorBody } from './errors';
import { completionFrames, openAiFrame } from './stream';
import { validateChatCompletionRequest } from './validate-request';

/** `POST /v1/chat/completions`: validate like OpenAI, then answer with the scripted or default reply. */
export async function handleChatCompletions(exchange: Exchange, context: EmulatorContext): Promise<void> {
  const requestId = `req_${randomToken(32)}`;
  const { parsed, body, model, stream } = receiveRequest(
    context,
    exchange,
    'openai',
    requestId,
    (received) => ({
      model: stringOrUndefined(received.model),
      stream: received.stream === true,
    }),
  );

  const baseHeaders = { 'x-request-id': requestId, 'openai-processing-ms': '1' };
  const rejection = validateChatCompletionRequest(headerValue(exchange.request, 'authorization'), parsed);
  if (rejection !== undefined) {
    sendJson(exchange.response, rejection.status, openAiErrorBody(rejection), baseHeaders);
    return;
  }

  const identity: CompletionIdentity = {
    id: `chatcmpl-${randomToken(29)}`,
    created: unixSeconds(),
    model: model ?? '',
  };
  const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
  const renderer: ReplyRenderer = {
    baseHeaders,
    error: (reply) => {
      const defaults = defaultOpenAiError(reply.status);
      const headers: Record<string, string> = {};
      if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
      if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
      return {
        status: reply.status,
        headers,
        body: openAiErrorBody({
          message: reply.message ?? defaults.message,
          type: reply.type ?? defaults.type,
          param: reply.param !== undefined ? reply.param : defaults.param,
          code: reply.code !== undefined ? reply.code : defaults.code,
        }),
      };
    },
    answerBody: (plan) => completionBody(plan, identity),
    streamFrames: (plan) => completionFrames(plan, identity, includeUsage),
    streamErrorFrame: (fault) => {
      const defaults = defaultOpenAiError(fault.status ?? 500);
      return openAiFrame(
        JSON.stringify(
          openAiErrorBody({
            message: fault.message ?? defaults.message,
            type: fault.type ?? defaults.type,
            param: null,
            code: defaults.code,
          }),
        ),
      );
    },
    malformedFrame: (data) => openAiFrame(data),
  };

  await executeReply({
    response: exchange.response,
    reply: context.queue.take({ provider: 'openai', model, stream }),
    stream,
    facts: {
      json: jsonRequestOf(body.response_format),
      conversation: openAiConversation(body),
      requestCharacters: exchange.bodyText.length,
      variation: variationRequest(context.variation, model, exchange.bodyText),
    },
    defaultChunkSize: context.defaultChunkSize,
    renderer,
  });
}

function jsonRequestOf(format: unknown): JsonRequest {
  if (!isRecord(format)) return { kind: 'none' };
  if (format.type === 'json_object') return { kind: 'object' };
  if (format.type === 'json_schema' && isRecord(format.json_schema))
    return { kind: 'schema', schema: format.json_schema.schema };
  return { kind: 'none' };
}
