import type { Exchange } from './http/exchange';
import { flattenHeaders } from './http/exchange';
import type { RequestRecorder } from './recording/request-recorder';
import type { ScriptQueue } from './script/script-queue';
import { isRecord, parseJsonBody, type JsonObject, type ParsedBody } from './json';
import type { ProviderName } from './types';
import type { VariationSettings } from './variation/variation-settings';

/** Shared state every route handler works with. */
export interface EmulatorContext {
  queue: ScriptQueue;
  recorder: RequestRecorder;
  defaultChunkSize: number;
  /** Model ids listed by `GET /v1/models`. */
  models: readonly string[];
  /** Seeded variation of structured-output answers; undefined: every answer is valid. */
  variation: VariationSettings | undefined;
}

/** Records a provider request (valid or not: rejected requests are worth asserting on too). */
export function recordExchange(
  context: EmulatorContext,
  exchange: Exchange,
  fields: {
    provider: ProviderName;
    body: unknown;
    model: string | undefined;
    stream: boolean;
    requestId: string;
  },
): void {
  context.recorder.record({
    provider: fields.provider,
    method: exchange.method,
    path: exchange.path,
    query: exchange.query,
    headers: flattenHeaders(exchange.request),
    body: fields.body,
    model: fields.model,
    stream: fields.stream,
    requestId: fields.requestId,
    receivedAt: Date.now(),
  });
}

/** A provider request as received: the parsed body (an empty object when it is not a JSON object). */
export interface ReceivedRequest {
  parsed: ParsedBody;
  body: JsonObject;
  model: string | undefined;
  stream: boolean;
}

/**
 * Parses and records a provider request in one step; `describe` reads the model and streaming flag
 * (from the body for OpenAI and Anthropic, from the path for Gemini).
 */
export function receiveRequest(
  context: EmulatorContext,
  exchange: Exchange,
  provider: ProviderName,
  requestId: string,
  describe: (body: JsonObject) => { model: string | undefined; stream: boolean },
): ReceivedRequest {
  const parsed = parseJsonBody(exchange.bodyText);
  const body: JsonObject = parsed.ok && isRecord(parsed.value) ? parsed.value : {};
  const described = describe(body);
  recordExchange(context, exchange, {
    provider,
    body: parsed.ok ? parsed.value : parsed.text,
    requestId,
    ...described,
  });
  return { parsed, body, ...described };
}
