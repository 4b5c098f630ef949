import { can } from '@agentdesk/authz';
import { ApiRequestError, ApiUnavailableError, consoleRefusal, relayFromApi } from '../../api-client';
import { routeCaller } from '../../auth';
import { createKeyFormSchema, toCreateKeyBody } from '../key-form';
import { keysNoticeHref, type KeyNoticeCode } from '../key-notices';
import { createApiKey, revokeApiKey } from './api-keys';

/** The created key is in this answer only: nothing (browser, proxy) may keep a copy. */
const noStore = { 'cache-control': 'no-store, private', pragma: 'no-cache' };

/**
 * `POST /keys/create` (JSON): creates a key through the API for a signed-in admin. Checked here
 * (Origin, sign-in, `api-keys:write`) and again by the API.
 */
export async function handleCreateKey(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'mutation');
  if (!caller.ok) return caller.refusal;
  if (!can(caller.signedIn.principal, 'api-keys:write'))
    return consoleRefusal('role-may-not', 'Your role may not create API keys');
  const parsed = createKeyFormSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    return consoleRefusal('invalid-input', `${field}: ${issue?.message ?? 'invalid'}`);
  }
  const body = toCreateKeyBody(parsed.data);
  return relayFromApi(
    () => createApiKey(caller.signedIn.credential, body),
    (created) => Response.json(created, { status: 201, headers: noStore }),
  );
}

function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path, ...noStore } });
}

/** Why a revocation did not happen, as one of the keys page's notice codes (never the API's words in a URL). */
function revokeFailureCode(error: ApiRequestError | ApiUnavailableError): KeyNoticeCode {
  if (error instanceof ApiUnavailableError) return 'api-unavailable';
  return error.status === 404 ? 'key-not-found' : 'revoke-refused';
}

/**
 * `POST /keys/revoke` (form field `keyId`): revokes a key, then back to the keys page with a notice
 * code; the page shows that code's fixed text.
 */
export async function handleRevokeKey(request: Request): Promise<Response> {
  const caller = await routeCaller(request, 'form-post');
  if (!caller.ok) return caller.refusal;
  if (!can(caller.signedIn.principal, 'api-keys:write'))
    return consoleRefusal('role-may-not', 'Your role may not revoke API keys');
  const form = await request.formData().catch(() => null);
  const keyId = form?.get('keyId');
  if (typeof keyId !== 'string' || keyId === '' || keyId.length > 100)
    return seeOther(keysNoticeHref('choose-key'));
  try {
    await revokeApiKey(caller.signedIn.credential, keyId);
    return seeOther(keysNoticeHref('key-revoked'));
  } catch (error) {
    // The signed-in key itself stopped working (revoked elsewhere): sign in again, as pages do.
    if (error instanceof ApiRequestError && error.status === 401) return seeOther('/sign-in?error=expired');
    if (error instanceof ApiRequestError || error instanceof ApiUnavailableError)
      return seeOther(keysNoticeHref(revokeFailureCode(error)));
    throw error;
  }
}
