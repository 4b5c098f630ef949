import { can } from '@agentdesk/authz';
import { newModelPriceBodySchema } from '@agentdesk/api-contract';
import { consoleRefusal, relayFromApi } from '../../api-client';
import { routeCaller } from '../../auth';
import { addModelPrice } from './model-prices';

/**
 * `POST /prices/add` (JSON): adds a model price version through the API for a signed-in admin.
 * Checked here (Origin, sign-in, `prices:write`, the body's shape) and again by the API, which
 * also refuses a date in the past and a second version at the same instant.
 */
export async function handleAddPrice(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  if (!can(caller.signedIn.principal, 'prices:write'))
    return consoleRefusal('role-may-not', 'Your role may not change model prices');
  const parsed = newModelPriceBodySchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    return consoleRefusal('invalid-input', `${field}: ${issue?.message ?? 'invalid'}`);
  }
  return relayFromApi(
    () => addModelPrice(caller.signedIn.credential, parsed.data),
    (added) => Response.json(added, { status: 201 }),
  );
}
