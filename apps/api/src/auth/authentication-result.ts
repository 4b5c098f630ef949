import type { Principal } from '@agentdesk/authz';

/** Why a way in refused a request (a metric label; the client sees one body per way). */
export type AuthenticationFailure = 'missing' | 'malformed' | 'ambiguous' | 'unknown-or-revoked';

/** A way in's verdict on one request. */
export type AuthenticationResult =
  | {
      readonly ok: true;
      readonly principal: Principal;
      /** The console session the request came in with (`console-session` way only). */
      readonly consoleSessionId?: string;
    }
  | { readonly ok: false; readonly failure: AuthenticationFailure };
