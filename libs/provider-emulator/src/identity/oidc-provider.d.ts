/**
 * The little of `oidc-provider` (which ships no types) the identity provider uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    readonly path: string;
    readonly req: IncomingMessage;
    readonly res: ServerResponse;
    status: number;
    type: string;
    body: unknown;
    redirect(location: string): void;
  }

  interface InteractionDetails {
    readonly uid: string;
    readonly params: Readonly<Record<string, unknown>>;
  }

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly Grant: new (properties: { accountId: string; clientId: string }) => GrantInstance;
    use(middleware: (context: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
    ): Promise<string>;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }

  export default Provider;
}
