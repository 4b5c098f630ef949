import type { Principal } from '@agentdesk/authz';
import {
  importedSuiteJsonSchema,
  pageJsonSchema,
  suiteJsonSchema,
  suiteRunJsonSchema,
  suiteRunSummaryJsonSchema,
  suiteSummaryJsonSchema,
  suiteVersionJsonSchema,
  type ImportedSuiteJson,
  type SuiteJson,
  type SuiteRunJson,
  type SuiteRunSummaryJson,
  type SuiteSummaryJson,
  type SuiteVersionJson,
} from '@agentdesk/api-contract';
import type { Page } from '@agentdesk/storage';
import { Controller, Get, HttpCode, Inject, Post, Put, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { CurrentPrincipal } from '../auth/request-principal';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { ValidBody, ValidParam, ValidQuery } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext } from '../shared/audit/audit-context';
import { DocumentsChangeReason } from '../shared/audit/audit-reason';
import { Audited } from '../shared/audit/audited';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import {
  casesFromLabBody,
  createSuiteBody,
  exportQuery,
  importIntoSuiteBody,
  importSuiteBody,
  listRunsQuery,
  listSuitesQuery,
  saveSuiteBody,
  startRunBody,
  versionSchema,
  type CasesFromLabBody,
  type CreateSuiteBody,
  type ImportIntoSuiteBody,
  type ImportSuiteBody,
  type SaveSuiteBody,
  type StartRunBody,
} from './qa-inputs';
import { QaRuns } from './qa-runs.service';
import { QaSuites } from './qa-suites.service';
import { definitionFromFile } from './suite-file-input';

/** What an audit record of a suite change keeps: which suite, which version now, how big. */
function describeSuiteChange(
  context: AuditContext,
  suite: SuiteJson,
  details: Record<string, string> = {},
): void {
  context.describeChange({
    target: { kind: 'qa-suite', id: suite.id },
    details: {
      name: suite.name,
      version: suite.latestVersion,
      cases: suite.caseCount,
      targets: suite.targetCount,
      ...details,
    },
  });
}

/**
 * QA suites (issue 21): versioned sets of structured-output cases run against several models.
 * Suites hold no user's data: reading them needs `suites:read` (QA, viewers, admins), changing them
 * `suites:write`, running them `suites:run`. Every change is audited.
 */
@ApiTags('qa')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/qa/suites')
export class QaSuitesController {
  constructor(
    @Inject(QaSuites) private readonly suites: QaSuites,
    @Inject(QaRuns) private readonly runs: QaRuns,
  ) {}

  @Get()
  @RequireScope('suites:read')
  @ApiOperation({
    summary: 'List suites, newest first, each with its last run; or find one by its exact name (?name=)',
  })
  @Returns(200, pageJsonSchema(suiteSummaryJsonSchema), 'One page of suites')
  list(
    @ValidQuery(listSuitesQuery) query: z.output<typeof listSuitesQuery>,
  ): Promise<Page<SuiteSummaryJson>> {
    return this.suites.list({ limit: query.limit, cursor: query.cursor ?? null, name: query.name });
  }

  @Post()
  @RequireScope('suites:write')
  @Audited(auditActions.qaSuiteCreate, { target: { kind: 'qa-suite' } })
  @ApiOperation({
    summary: 'Create a suite from a definition (targets, cases, assertions); it is version 1 (audited)',
    description:
      'The definition is the suite file format (docs/QA-SUITES.md) as JSON. Every case schema must compile ' +
      'and every `matches` pattern be a regular expression. A name another suite has is a 409.',
  })
  @DocumentsChangeReason()
  @Returns(201, suiteJsonSchema, 'The new suite')
  @Refuses(409, 413)
  async create(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidBody(createSuiteBody) body: CreateSuiteBody,
  ): Promise<SuiteJson> {
    const suite = await this.suites.create(principal, body.definition, body.note ?? null);
    describeSuiteChange(context, suite);
    return suite;
  }

  @Post('import')
  @RequireScope('suites:write')
  @Audited(auditActions.qaSuiteImport, { target: { kind: 'qa-suite' } })
  @ApiOperation({
    summary: 'Create a suite from a YAML, JSON or promptfoo file’s text (audited)',
    description:
      'A file that does not parse, or breaks the format, is a 400 listing every problem with its path and line. ' +
      'A promptfoo file imports what maps onto a suite and lists the rest under `unsupported`.',
  })
  @DocumentsChangeReason()
  @Returns(201, importedSuiteJsonSchema, 'The new suite and what the file held that a suite cannot')
  @Refuses(409, 413)
  async importNew(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidBody(importSuiteBody) body: ImportSuiteBody,
  ): Promise<ImportedSuiteJson> {
    const imported = await this.suites.importNew(principal, definitionFromFile(body.format, body.text), null);
    describeSuiteChange(context, imported.suite, { format: body.format });
    return imported;
  }

  @Get(':id')
  @RequireScope('suites:read')
  @ApiOperation({ summary: 'One suite: its latest version whole, and every version’s header' })
  @Returns(200, suiteJsonSchema, 'The suite')
  @Refuses(404)
  get(@ValidParam('id', idSchema) id: string): Promise<SuiteJson> {
    return this.suites.get(id);
  }

  @Put(':id')
  @RequireScope('suites:write')
  @Audited(auditActions.qaSuiteSave, { target: { kind: 'qa-suite', idParam: 'id' } })
  @ApiOperation({
    summary: 'Save a new version of a suite, edited from baseVersion (audited)',
    description:
      'Versions are never changed: a save adds the next one, and runs keep pointing at the version they ran. ' +
      'A baseVersion that is no longer the latest (someone saved since) is a 409.',
  })
  @DocumentsChangeReason()
  @Returns(200, suiteJsonSchema, 'The suite at its new version')
  @Refuses(404, 409, 413)
  async save(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(saveSuiteBody) body: SaveSuiteBody,
  ): Promise<SuiteJson> {
    const suite = await this.suites.save(principal, id, {
      definition: body.definition,
      baseVersion: body.baseVersion,
      note: body.note ?? null,
    });
    describeSuiteChange(context, suite);
    return suite;
  }

  @Post(':id/import')
  @RequireScope('suites:write')
  @Audited(auditActions.qaSuiteSave, { target: { kind: 'qa-suite', idParam: 'id' } })
  @ApiOperation({
    summary:
      'Save a YAML, JSON or promptfoo file’s text as a suite’s next version, edited from baseVersion (audited)',
  })
  @DocumentsChangeReason()
  @Returns(
    200,
    importedSuiteJsonSchema,
    'The suite at its new version and what the file held that a suite cannot',
  )
  @Refuses(404, 409, 413)
  async importInto(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(importIntoSuiteBody) body: ImportIntoSuiteBody,
  ): Promise<ImportedSuiteJson> {
    const imported = await this.suites.importInto(principal, id, definitionFromFile(body.format, body.text), {
      baseVersion: body.baseVersion,
      note: body.note ?? null,
    });
    describeSuiteChange(context, imported.suite, { format: body.format });
    return imported;
  }

  @Get(':id/versions/:version')
  @RequireScope('suites:read')
  @ApiOperation({ summary: 'One version of a suite, whole' })
  @Returns(200, suiteVersionJsonSchema, 'The version')
  @Refuses(404)
  version(
    @ValidParam('id', idSchema) id: string,
    @ValidParam('version', versionSchema) version: number,
  ): Promise<SuiteVersionJson> {
    return this.suites.version(id, version);
  }

  @Get(':id/export')
  @RequireScope('suites:read')
  @ApiOperation({
    summary: 'A version (the latest by default) as a suite file to download, YAML or JSON',
    description: 'The file imports back to the same definition (POST /v1/qa/suites/import).',
  })
  @ApiProduces('application/yaml', 'application/json')
  @ApiResponse({ status: 200, description: 'The suite file, as an attachment' })
  @HttpCode(200)
  @Refuses(404)
  async export(
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(exportQuery) query: z.output<typeof exportQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const file = await this.suites.export(id, query.format, query.version);
    void reply
      .type(file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store');
    return file.text;
  }

  @Post(':id/cases-from-lab')
  @RequireScope('suites:write')
  @Audited(auditActions.qaSuiteSave, { target: { kind: 'qa-suite', idParam: 'id' } })
  @ApiOperation({
    summary:
      'Add a lab run’s schema, prompt and system prompt as a new case: the suite’s next version (audited)',
    description: 'Needs suites:write and lab:read. A case id the suite already has is a 409.',
  })
  @DocumentsChangeReason()
  @Returns(200, suiteJsonSchema, 'The suite at its new version')
  @Refuses(404, 409)
  async addCaseFromLab(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(casesFromLabBody) body: CasesFromLabBody,
  ): Promise<SuiteJson> {
    const suite = await this.suites.addCaseFromLab(principal, id, body);
    describeSuiteChange(context, suite, { labRunId: body.labRunId, caseId: body.caseId });
    return suite;
  }

  @Post(':id/runs')
  @RequireScope('suites:run')
  @Audited(auditActions.qaRunStart, { target: { kind: 'qa-run' } })
  @ApiOperation({
    summary: 'Run a version of a suite (the latest by default): every case on every target (audited)',
    description:
      'Answers at once with the run, every cell pending; follow GET /v1/qa/runs/{id}/events. Cells run on any ' +
      'replica, at most `concurrency` per provider per replica, and survive a restart.',
  })
  @DocumentsChangeReason()
  @Returns(201, suiteRunJsonSchema, 'The run, its cells pending')
  @Refuses(404)
  async startRun(
    @CurrentAuditContext() context: AuditContext,
    @CurrentPrincipal() principal: Principal,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(startRunBody) body: StartRunBody,
  ): Promise<SuiteRunJson> {
    const run = await this.runs.start(principal, id, body ?? {});
    context.describeChange({
      target: { kind: 'qa-run', id: run.id },
      details: {
        suiteId: run.suiteId,
        suite: run.suiteName,
        version: run.suiteVersion,
        cells: run.counts.total,
        models: run.targets.map((target) => target.model),
      },
    });
    return run;
  }

  @Get(':id/runs')
  @RequireScope('suites:read')
  @ApiOperation({ summary: 'A suite’s runs, newest first, with counts and pass rates per target' })
  @Returns(200, pageJsonSchema(suiteRunSummaryJsonSchema), 'One page of runs')
  @Refuses(404)
  listRuns(
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(listRunsQuery) query: z.output<typeof listRunsQuery>,
  ): Promise<Page<SuiteRunSummaryJson>> {
    return this.runs.listForSuite(id, { limit: query.limit, cursor: query.cursor ?? null });
  }
}
