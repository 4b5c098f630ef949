import type { Exchange } from './http/exchange';
import { flattenHeaders } from './http/exchange';
import type { RequestRecorder } from './recording/request-recorder';
import type { ScriptQueue } from './script/script-queue';
import type { ProviderName } from './types';

/** Shared state every route handler works with. */
export interface EmulatorContext {
  queue: ScriptQueue;
  recorder: RequestRecorder;
  defaultChunkSize: number;
  /** Model ids listed by `GET /v1/models`. */
  models: readonly string[];
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
