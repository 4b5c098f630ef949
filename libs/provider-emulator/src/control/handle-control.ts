import type { EmulatorContext } from '../emulator-context';
import type { Exchange } from '../http/exchange';
import { sendJson } from '../http/respond';
import { parseJsonBody } from '../json';
import { parseScriptedReplies } from '../script/scripted-reply-schema';
import type { ProviderName } from '../types';
import { parseVariationSettings } from '../variation/variation-settings';

/** Path prefix of the control surface; nothing under it is recorded or scripted. */
export const controlPrefix = '/_emulator/';

const providers: readonly string[] = ['openai', 'anthropic', 'gemini'];

/**
 * The control surface for out-of-process users (an API server under end-to-end test):
 * - `POST /_emulator/script` — body: one ScriptedReply or an array; 200 `{queued, pending}`, 400 on invalid replies.
 * - `GET /_emulator/script` — `{pending: ScriptedReply[]}`.
 * - `GET /_emulator/requests[?provider=openai]` — `{requests: RecordedRequest[]}`, oldest first.
 * - `POST /_emulator/reset` — clears the queue and the records; 200 `{ok: true}`.
 * - `GET /_emulator/health` — 200 `{ok: true}`, for readiness checks.
 * - `GET /_emulator/variation` — `{variation: VariationSettings | null}`.
 * - `PUT /_emulator/variation` — body: VariationSettings; 200 `{variation}`, 400 naming the bad field.
 * - `DELETE /_emulator/variation` — variation off; 200 `{variation: null}`.
 */
export function handleControl(exchange: Exchange, context: EmulatorContext): void {
  const route = `${exchange.method} ${exchange.path.slice(controlPrefix.length)}`;
  const response = exchange.response;
  switch (route) {
    case 'POST script': {
      const parsed = parseJsonBody(exchange.bodyText);
      if (!parsed.ok) {
        sendJson(response, 400, { error: 'body must be JSON: a ScriptedReply or an array of them' });
        return;
      }
      try {
        const replies = parseScriptedReplies(parsed.value);
        context.queue.enqueue(replies);
        sendJson(response, 200, { queued: replies.length, pending: context.queue.pending().length });
      } catch (error) {
        sendJson(response, 400, { error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    case 'GET script':
      sendJson(response, 200, { pending: context.queue.pending() });
      return;
    case 'GET requests': {
      const provider = exchange.query.provider;
      if (provider !== undefined && !providers.includes(provider)) {
        sendJson(response, 400, { error: `provider must be one of ${providers.join(', ')}` });
        return;
      }
      const requests = context.recorder.all();
      sendJson(response, 200, {
        requests:
          provider === undefined
            ? requests
            : requests.filter((request) => request.provider === (provider as ProviderName)),
      });
      return;
    }
    case 'POST reset':
      context.queue.clear();
      context.recorder.clear();
      sendJson(response, 200, { ok: true });
      return;
    case 'GET variation':
      sendJson(response, 200, { variation: context.variation ?? null });
      return;
    case 'PUT variation': {
      const parsed = parseJsonBody(exchange.bodyText);
      if (!parsed.ok) {
        sendJson(response, 400, { error: 'body must be JSON: {"seed": …, "rates": {"default": 0.1}}' });
        return;
      }
      try {
        context.variation = parseVariationSettings(parsed.value);
        sendJson(response, 200, { variation: context.variation });
      } catch (error) {
        sendJson(response, 400, { error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    case 'DELETE variation':
      context.variation = undefined;
      sendJson(response, 200, { variation: null });
      return;
    case 'GET health':
      sendJson(response, 200, { ok: true });
      return;
    default:
      sendJson(response, 404, { error: `unknown control route: ${exchange.method} ${exchange.path}` });
  }
}
