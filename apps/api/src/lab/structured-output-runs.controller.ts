import type { Principal } from '@agentdesk/authz';
import { Controller, Get, Inject, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentPrincipal } from '../auth/request-principal';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext, listingFilter, withQueryReason } from '../shared/audit/audit-context';
import { Audited } from '../shared/audit/audited';
import { DocumentsAuditReason, DocumentsChangeReason } from '../shared/audit/audit-reason';
import { CrossUserAudit, type AuditContext } from '../shared/audit/cross-user-audit';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidBody, ValidParam, ValidQuery } from '../http/validated';
import { pageJsonSchema } from '@agentdesk/api-contract';
import type { Page } from '@agentdesk/storage';
import { createRunBody, listRunsQuery, readRunQuery, type CreateRunBody } from './lab-inputs';
import { runJsonSchema, runSummaryJsonSchema, type RunJson, type RunSummaryJson } from './run-json';
import { StructuredOutputLab } from './structured-output-lab.service';

/**
 * The structured-output lab, for admins and viewers (QA). Runs hold no end-user data, but they
 * hold other principals' prompts: listing runs, and reading another principal's run, is audited.
 */
@ApiTags('lab')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/admin/structured-output/runs')
export class StructuredOutputRunsController {
  constructor(
    @Inject(StructuredOutputLab) private readonly lab: StructuredOutputLab,
    @Inject(CrossUserAudit) private readonly audit: CrossUserAudit,
  ) {}

  @Post()
  @RequireScope('lab:run')
  @Audited(auditActions.labRunCreate, { target: { kind: 'lab-run' } })
  @ApiOperation({
    summary: 'Try one JSON schema and prompt on several models at once',
    description:
      'Every target is called concurrently with the schema as a json_schema response format. Each result shows ' +
      'the schema as lowered for its provider with the change report, the exact request body, the raw output, ' +
      'the parsed JSON, its validation against the original schema, usage and latency. A target that fails ' +
      '(unknown model, a schema its provider cannot take, a provider error after retries, the timeout) is ' +
      'recorded with its error; the others are unaffected. The run is stored. Audited.',
  })
  @DocumentsChangeReason()
  @Returns(201, runJsonSchema, 'The finished run with every target’s result')
  async create(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidBody(createRunBody) body: CreateRunBody,
  ): Promise<RunJson> {
    const run = await this.lab.run(principal, body);
    // Model calls that cost money, on a prompt of the caller's: who ran what, and which models.
    context.describeChange({
      target: { kind: 'lab-run', id: run.id },
      details: { name: run.name, models: run.targets.map((target) => target.model) },
    });
    return run;
  }

  @Get()
  @RequireScope('lab:read')
  @ApiOperation({ summary: 'List structured-output runs, newest first (audited)' })
  @DocumentsAuditReason()
  @Returns(200, pageJsonSchema(runSummaryJsonSchema), 'One page of runs, each with its targets’ outcomes')
  async list(
    @CurrentAuditContext() context: AuditContext,
    @ValidQuery(listRunsQuery) query: z.output<typeof listRunsQuery>,
  ): Promise<Page<RunSummaryJson>> {
    const page = await this.lab.list({ limit: query.limit, cursor: query.cursor ?? null });
    await this.audit.recordListing(withQueryReason(context, query.reason), auditActions.labRunsList, {
      filter: listingFilter(query),
      count: page.items.length,
    });
    return page;
  }

  @Get(':id')
  @RequireScope('lab:read')
  @ApiOperation({
    summary:
      'Read one structured-output run with every target’s result (audited when another principal made it)',
  })
  @DocumentsAuditReason()
  @Returns(200, runJsonSchema, 'The run')
  @Refuses(404)
  async get(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(readRunQuery) query: z.output<typeof readRunQuery>,
  ): Promise<RunJson> {
    const run = await this.lab.get(id);
    await this.audit.recordOtherPrincipalsRecord(
      withQueryReason(context, query.reason),
      auditActions.labRunRead,
      { id: run.id, ownerPrincipalId: run.actorPrincipalId },
    );
    return run;
  }
}
