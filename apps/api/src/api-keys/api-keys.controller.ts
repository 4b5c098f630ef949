import { Controller, Delete, Get, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { Audited } from '../shared/audit/audited';
import { CurrentAuditContext, withQueryReason } from '../shared/audit/audit-context';
import { DocumentsAuditReason, DocumentsChangeReason } from '../shared/audit/audit-reason';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidBody, ValidParam, ValidQuery } from '../http/validated';
import { pageJsonSchema } from '@agentdesk/api-contract';
import type { Page } from '@agentdesk/storage';
import { createApiKeyBody, listApiKeysQuery } from './api-key-inputs';
import {
  apiKeyJsonSchema,
  createdApiKeyJsonSchema,
  type ApiKeyJson,
  type CreatedApiKeyJson,
} from './api-key-json';
import { apiKeyChange } from './api-key-change';
import { ApiKeysService } from './api-keys.service';

/** API keys (admin only). */
@ApiTags('admin')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/admin/api-keys')
export class ApiKeysController {
  constructor(@Inject(ApiKeysService) private readonly apiKeys: ApiKeysService) {}

  @Post()
  @RequireScope('api-keys:write')
  @Audited(auditActions.apiKeyCreate, { target: { kind: 'api-key' } })
  @ApiOperation({ summary: 'Create an API key; the full key is in this answer only (audited)' })
  @DocumentsChangeReason()
  @Returns(201, createdApiKeyJsonSchema, 'The key’s metadata and the key itself (shown once)')
  @Refuses(404, 409, 413)
  async create(
    @CurrentAuditContext() context: AuditContext,
    @ValidBody(createApiKeyBody) body: z.output<typeof createApiKeyBody>,
  ): Promise<CreatedApiKeyJson> {
    const created = await this.apiKeys.create(body);
    context.describeChange(apiKeyChange(created.apiKey));
    return created;
  }

  @Get()
  @RequireScope('api-keys:read')
  @ApiOperation({ summary: 'List API keys, newest first (revoked ones with includeRevoked=true; audited)' })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(apiKeyJsonSchema), 'One page of keys')
  list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(listApiKeysQuery) query: z.output<typeof listApiKeysQuery>,
  ): Promise<Page<ApiKeyJson>> {
    return this.apiKeys.list(withQueryReason(context, query.reason), query);
  }

  @Delete(':id')
  @RequireScope('api-keys:write')
  @Audited(auditActions.apiKeyRevoke, { target: { kind: 'api-key', idParam: 'id' } })
  @ApiOperation({ summary: 'Revoke an API key; it stops working on the next request (audited)' })
  @DocumentsChangeReason()
  @Returns(200, apiKeyJsonSchema, 'The revoked key')
  @Refuses(404)
  async revoke(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
  ): Promise<ApiKeyJson> {
    const revoked = await this.apiKeys.revoke(id);
    context.describeChange(apiKeyChange(revoked));
    return revoked;
  }
}
