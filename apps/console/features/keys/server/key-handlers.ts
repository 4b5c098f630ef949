import { can } from '@agentdesk/authz';
import { ApiRequestError, ApiUnavailableError } from '../../api-client';
import { currentSignIn, isSameOriginRequest } from '../../auth';
import { createKeyFormSchema, toCreateKeyBody } from '../key-form';
import { keysNoticeHref, type KeyNoticeCode } from '../key-notices';
import { createApiKey, revokeApiKey } from './api-keys';

/** The created key is in this answer only: nothing (browser, proxy) may keep a copy. */
const noStore = { 'cache-control': 'no-store, private', pragma: 'no-cache' };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...noStore, 'content-type': 'application/json' },
  });
}

function refusalOf(error: unknown): Response {
  if (error instanceof ApiRequestError)
    return json(error.status, { error: { code: error.code, message: error.message } });
  if (error instanceof ApiUnavailableError)
    return json(502, { error: { code: 'API_UNAVAILABLE', message: error.message } });
  throw error;
}

/**
 * `POST /keys/create` (JSON): creates a key through the API for a signed-in admin. Checked here
 * (Origin, sign-in, `api-keys:write`) and again by the API.
 */
export async function handleCreateKey(request: Request): Promise<Response> {
  if (!isSameOriginRequest(request.headers))
    return json(403, { error: { code: 'CROSS_SITE', message: 'Cross-site request refused' } });
  const signedIn = await currentSignIn();
  if (signedIn === null) return json(401, { error: { code: 'SIGNED_OUT', message: 'Sign in again' } });
  if (!can(signedIn.principal, 'api-keys:write'))
    return json(403, { error: { code: 'FORBIDDEN', message: 'Your role may not create API keys' } });
  const parsed = createKeyFormSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    return json(400, {
      error: { code: 'VALIDATION_FAILED', message: `${field}: ${issue?.message ?? 'invalid'}` },
    });
  }
  try {
    return json(201, await createApiKey(signedIn.credential, toCreateKeyBody(parsed.data)));
  } catch (error) {
    return refusalOf(error);
  }
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
  if (!isSameOriginRequest(request.headers))
    return new Response('Cross-site request refused', { status: 403 });
  const signedIn = await currentSignIn();
  if (signedIn === null) return seeOther('/sign-in');
  if (!can(signedIn.principal, 'api-keys:write'))
    return new Response('Your role may not revoke API keys', { status: 403 });
  const form = await request.formData().catch(() => null);
  const keyId = form?.get('keyId');
  if (typeof keyId !== 'string' || keyId === '' || keyId.length > 100)
    return seeOther(keysNoticeHref('choose-key'));
  try {
    await revokeApiKey(signedIn.credential, keyId);
    return seeOther(keysNoticeHref('key-revoked'));
  } catch (error) {
    // The signed-in key itself stopped working (revoked elsewhere): sign in again, as pages do.
    if (error instanceof ApiRequestError && error.status === 401) return seeOther('/sign-in?error=expired');
    if (error instanceof ApiRequestError || error instanceof ApiUnavailableError)
      return seeOther(keysNoticeHref(revokeFailureCode(error)));
    throw error;
  }
}
