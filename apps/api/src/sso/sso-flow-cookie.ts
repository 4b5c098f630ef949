import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Secret } from '../config/secret';

/**
 * What openid-client's passport strategy keeps between the start of a sign-in and its callback
 * (`state`, `nonce`, the PKCE `code_verifier`): in an encrypted, HttpOnly cookie on the API's
 * origin, valid for ten minutes. Encrypted (AES-256-GCM), not only signed, so the browser never
 * holds a readable code verifier; the key is derived from the client secret, so every replica opens
 * the cookies of the others and no other state is shared.
 */
export const SSO_FLOW_COOKIE = 'agentdesk_sso_flow';
export const SSO_FLOW_TTL_MS = 10 * 60 * 1000;

export type FlowState = Readonly<Record<string, unknown>>;

/** Seals and opens flow cookies with a key derived from the client secret. */
export class FlowCookieSealer {
  private readonly key: Buffer;

  constructor(
    clientSecret: Secret,
    private readonly now: () => number = Date.now,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', clientSecret.reveal(), 'agentdesk', 'sso-flow-cookie', 32));
  }

  seal(state: FlowState): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = JSON.stringify({ state, expiresAt: this.now() + SSO_FLOW_TTL_MS });
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
  }

  /** The state, or undefined for a cookie that is absent, forged, tampered with or expired. */
  open(sealed: string | undefined): FlowState | undefined {
    if (sealed === undefined) return undefined;
    const parts = sealed.split('.');
    if (parts.length !== 3) return undefined;
    try {
      const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      const parsed = JSON.parse(plain) as { state?: unknown; expiresAt?: unknown };
      if (typeof parsed.expiresAt !== 'number' || parsed.expiresAt <= this.now()) return undefined;
      if (typeof parsed.state !== 'object' || parsed.state === null) return undefined;
      return parsed.state as FlowState;
    } catch {
      return undefined;
    }
  }
}

/** The `Set-Cookie` value of a sealed flow (or of its removal when `sealed` is undefined). */
export function flowCookieHeader(sealed: string | undefined, secure: boolean): string {
  const attributes = [
    `${SSO_FLOW_COOKIE}=${sealed ?? ''}`,
    'Path=/v1/sso',
    'HttpOnly',
    // Lax, not Strict: the provider's redirect back is a cross-site top-level GET, which must carry it.
    'SameSite=Lax',
    `Max-Age=${sealed === undefined ? 0 : SSO_FLOW_TTL_MS / 1000}`,
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** The flow cookie's value from a `Cookie` header (the first one: a browser sends the most specific first). */
export function readFlowCookie(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() === SSO_FLOW_COOKIE)
      return pair.slice(separator + 1).trim() || undefined;
  }
  return undefined;
}
