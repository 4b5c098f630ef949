import type { EmulatorContext } from '../emulator-context';
import { headerValue, type Exchange } from '../http/exchange';
import { sendJson } from '../http/respond';
import { randomToken } from '../ids';

const listedSince = 1_700_000_000;

/**
 * `GET /v1/models`. OpenAI and Anthropic share this path; a request carrying `anthropic-version`
 * gets Anthropic's paged list shape, any other gets OpenAI's `{object:"list", data:[…]}`.
 */
export function handleListModels(exchange: Exchange, context: EmulatorContext): void {
  if (headerValue(exchange.request, 'anthropic-version') !== undefined) {
    const data = context.models.map((id) => ({
      type: 'model',
      id,
      display_name: id,
      created_at: new Date(listedSince * 1000).toISOString(),
    }));
    sendJson(
      exchange.response,
      200,
      { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
      { 'request-id': `req_${randomToken(24)}` },
    );
    return;
  }
  sendJson(
    exchange.response,
    200,
    {
      object: 'list',
      data: context.models.map((id) => ({
        id,
        object: 'model',
        created: listedSince,
        owned_by: 'provider-emulator',
      })),
    },
    { 'x-request-id': `req_${randomToken(32)}` },
  );
}
