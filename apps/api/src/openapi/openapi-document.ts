import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_HEADER_SCHEME, BEARER_SCHEME } from '../http/openapi-decorators';

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

/** Builds the document from the controllers' decorators (zod schemas are converted by the route decorators). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('AgentDesk API')
    .setDescription(
      'Sessions of portal end users and AgentDesk users. Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`. ' +
        'Errors are `{ error: { code, message, requestId } }`; another user’s resource answers exactly like a missing one (404).',
    )
    .setVersion('1')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'An AgentDesk API key (adk_…)' },
      BEARER_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An AgentDesk API key (adk_…)' },
      API_KEY_HEADER_SCHEME,
    )
    .build();
  return SwaggerModule.createDocument(app, config);
}
