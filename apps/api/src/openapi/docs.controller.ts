import { Controller, Get, Inject, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { Public } from '../routes/route-policy';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { docsSecurityRouteConfig } from '../http/security-headers';
import { ValidParam } from '../http/validated';
import { OpenApiDocumentHolder } from './openapi-document';
import { docsAsset, docsPage } from './swagger-ui-assets';

/** `/openapi.json` and the Swagger UI at `/docs`. */
@ApiExcludeController()
@Public()
@Controller()
export class DocsController {
  constructor(@Inject(OpenApiDocumentHolder) private readonly document: OpenApiDocumentHolder) {}

  @Get('openapi.json')
  openApi(): OpenAPIObject {
    return this.document.get();
  }

  // The one HTML page: its own Content-Security-Policy lets Swagger UI's files run (JSON gets 'none').
  @Get('docs')
  @RouteConfig(docsSecurityRouteConfig)
  docs(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.type('text/html; charset=utf-8');
    return docsPage;
  }

  @Get('docs/:asset')
  asset(
    @ValidParam('asset', z.string().max(100)) name: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): string {
    const asset = docsAsset(name);
    if (asset === undefined) throw new ApiError(ApiErrorCode.RouteNotFound, 'No such documentation file');
    void reply.type(asset.contentType).header('cache-control', 'public, max-age=3600');
    return asset.body;
  }
}
