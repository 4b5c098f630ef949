import { receiveRequest, type EmulatorContext } from '../emulator-context';
import { anthropicConversation } from '../conversation/anthropic-conversation';
import { headerValue, type Exchange } from '../http/exchange';
import { sendJson } from '../http/respond';
import { randomToken } from '../ids';
import { stringOrUndefined } from '../json';
import { executeReply, type ReplyRenderer } from '../reply/execute-reply';
import type { JsonRequest } from '../reply/request-facts';
import { variationRequest } from '../variation/structured-variation';
import { anthropicErrorBody, defaultAnthropicError } from './errors';
import { messageBody, type MessageIdentity } from './message-body';
import { anthropicFrame, messageFrames } from './stream';
import { outputSchemaOf, validateMessagesRequest, type AnthropicVersion } from './validate-request';

/** `POST /v1/messages`: validate like Anthropic (per API version), then answer. */
export async function handleMessages(exchange: Exchange, context: EmulatorContext): Promise<void> {
  const requestId = `req_01${randomToken(22)}`;
  const { parsed, body, model, stream } = receiveRequest(
    context,
    exchange,
    'anthropic',
    requestId,
    (received) => ({
      model: stringOrUndefined(received.model),
      stream: received.stream === true,
    }),
  );

  const baseHeaders = { 'request-id': requestId };
  const version = headerValue(exchange.request, 'anthropic-version');
  const rejection = validateMessagesRequest(
    {
      version,
      apiKey: headerValue(exchange.request, 'x-api-key'),
      authorization: headerValue(exchange.request, 'authorization'),
    },
    parsed,
  );
  if (rejection !== undefined) {
    sendJson(
      exchange.response,
      rejection.status,
      anthropicErrorBody(rejection.type, rejection.message, requestId),
      baseHeaders,
    );
    return;
  }

  const identity: MessageIdentity = {
    id: `msg_01${randomToken(22)}`,
    model: model ?? '',
    version: version as AnthropicVersion,
  };
  const renderer: ReplyRenderer = {
    baseHeaders,
    error: (reply) => {
      const defaults = defaultAnthropicError(reply.status);
      const headers: Record<string, string> = {};
      if (reply.retryAfterSeconds !== undefined) headers['retry-after'] = String(reply.retryAfterSeconds);
      if (reply.retryAfterMs !== undefined) headers['retry-after-ms'] = String(reply.retryAfterMs);
      return {
        status: reply.status,
        headers,
        body: anthropicErrorBody(reply.type ?? defaults.type, reply.message ?? defaults.message, requestId),
      };
    },
    answerBody: (plan) => messageBody(plan, identity),
    streamFrames: (plan) => messageFrames(plan, identity),
    streamErrorFrame: (fault) => {
      const defaults = defaultAnthropicError(fault.status ?? 529);
      return anthropicFrame(
        'error',
        JSON.stringify({
          type: 'error',
          error: { type: fault.type ?? defaults.type, message: fault.message ?? defaults.message },
        }),
      );
    },
    malformedFrame: (data) => anthropicFrame('content_block_delta', data),
  };

  const output = outputSchemaOf(body);
  const json: JsonRequest =
    output === undefined ? { kind: 'none' } : { kind: 'schema', schema: output.schema };
  await executeReply({
    response: exchange.response,
    reply: context.queue.take({ provider: 'anthropic', model, stream }),
    stream,
    facts: {
      json,
      conversation: anthropicConversation(body),
      requestCharacters: exchange.bodyText.length,
      variation: variationRequest(context.variation, model, exchange.bodyText),
    },
    defaultChunkSize: context.defaultChunkSize,
    renderer,
  });
}
