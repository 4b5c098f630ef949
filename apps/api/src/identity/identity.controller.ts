import type { Principal } from '@agentdesk/authz';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { CurrentPrincipal } from '../auth/request-principal';
import { RequireScope } from '../routes/route-policy';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidQuery } from '../http/validated';
import { identityJsonSchema, type IdentityJson } from '@agentdesk/api-contract';
import { IdentityService } from './identity.service';

// No parameters: a stray one is refused rather than silently ignored.
const noQuery = z.object({}).strict();

/** `GET /v1/me`: what portals and the console ask first. */
@ApiTags('identity')
@ApiKeyAuthenticated()
@Refuses(400, 401, 429)
@Controller('v1/me')
export class IdentityController {
  constructor(@Inject(IdentityService) private readonly identity: IdentityService) {}

  @Get()
  @RequireScope('identity:read')
  @ApiOperation({
    summary: 'Who this key is: kind, role, scopes, user, portal and the key’s metadata (never its secret)',
    description:
      'Every role may call it, and the dev-mode anonymous user too. A portal key describes the portal itself: `X-End-User-Id` is not read here.',
  })
  @Returns(200, identityJsonSchema, 'The calling principal')
  me(
    @CurrentPrincipal() principal: Principal,
    @ValidQuery(noQuery) _query: z.output<typeof noQuery>,
  ): Promise<IdentityJson> {
    return this.identity.describe(principal);
  }
}
