import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_FORMAT_DESCRIPTION } from '../core/api-key-format';
import { API_KEY_HEADER_SCHEME, BEARER_SCHEME, CONSOLE_SESSION_SCHEME } from '../http/openapi-decorators';

/** Holds the OpenAPI document, built once the app's routes exist. */
export class OpenApiDocumentHolder {
  private document: OpenAPIObject | undefined;

  set(document: OpenAPIObject): void {
    this.document = document;
  }

  get(): OpenAPIObject {
    if (this.document === undefined)
      throw new Error('The OpenAPI document is built after the app is created');
    return this.document;
  }
}

// The keys are opaque strings looked up by hash, not JWTs: nothing in them can be decoded or verified offline.
const apiKeyDescription =
  `An AgentDesk API key: \`${API_KEY_FORMAT_DESCRIPTION}\` — the key id, then a random secret. ` +
  'It is opaque (not a JWT): the server looks up its SHA-256 among unrevoked keys (caching a verified key for a few seconds), and a revocation applies to the next request on every replica within a second. ' +
  'Keys come from POST /v1/admin/api-keys, the first start of the server, or `npm run admin-key` on the host; each is shown once.';

/** Builds the document from the controllers' decorators (zod schemas are converted by the route decorators). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('AgentDesk API')
    .setDescription(
      'Sessions of portal end users and AgentDesk users. Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`; ' +
        '`GET /v1/me` says who a key is. Only a server started with AGENTDESK_DEV_MODE (loopback only) takes requests without a key. ' +
        'Errors are `{ error: { code, message, requestId } }`; another user’s resource answers exactly like a missing one (404).',
    )
    .setVersion('1')
    // addBearerAuth defaults bearerFormat to "JWT"; these keys are not JWTs.
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'adk_<key id>_<secret>',
        description: apiKeyDescription,
      },
      BEARER_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: apiKeyDescription },
      API_KEY_HEADER_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Console-Session',
        description:
          'A signed-in person’s console session token (`adcs_<43 base64url characters>`), sent by the console’s server. ' +
          `\`POST /v1/console-sessions\` makes one from an admin's or viewer's API key (\`${API_KEY_FORMAT_DESCRIPTION}\`: from POST /v1/admin/api-keys, the first start of the server, or \`npm run admin-key\` on the host). ` +
          'Routes take it unless they say otherwise; sign-in takes a key only, sign-out this token only. The server keeps only its SHA-256 and ends it at sign-out, at the key’s revocation, at an admin’s request or at its idle or absolute timeout.',
      },
      CONSOLE_SESSION_SCHEME,
    )
    .build();
  return SwaggerModule.createDocument(app, config);
}
