import {
  cellComparisonJsonSchema,
  cellJsonSchema,
  runComparisonJsonSchema,
  suiteRunJsonSchema,
  type CellComparisonJson,
  type CellJson,
  type RunComparisonJson,
  type SuiteRunJson,
} from '@agentdesk/api-contract';
import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { LOGGER } from '../core/tokens';
import { idSchema } from '../http/inputs';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id';
import { ValidBody, ValidParam, ValidQuery } from '../http/validated';
import { RequireScope } from '../routes/route-policy';
import { auditActions } from '../shared/audit/audit-actions';
import { CurrentAuditContext } from '../shared/audit/audit-context';
import { DocumentsChangeReason } from '../shared/audit/audit-reason';
import { Audited } from '../shared/audit/audited';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { cancelRunBody, caseIdParamSchema, compareQuery, targetIndexSchema } from './qa-inputs';
import { QaRuns } from './qa-runs.service';
import { streamRunProgress } from './run-progress-stream';

/** Runs of QA suites: the matrix, live progress, cancellation, one cell whole, comparisons. */
@ApiTags('qa')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429)
@Controller('v1/qa/runs')
export class QaRunsController {
  constructor(
    @Inject(QaRuns) private readonly runs: QaRuns,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get(':id')
  @RequireScope('suites:read')
  @ApiOperation({
    summary: 'One run: counts, the case × target matrix, pass rates per target and per assertion kind',
  })
  @Returns(200, suiteRunJsonSchema, 'The run')
  @Refuses(404)
  get(@ValidParam('id', idSchema) id: string): Promise<SuiteRunJson> {
    return this.runs.get(id);
  }

  @Get(':id/events')
  @RequireScope('suites:read')
  @ApiOperation({
    summary: 'A run’s progress as Server-Sent Events, until it finishes',
    description:
      'Events (`event: <type>`, JSON data): `snapshot` (the run with its matrix), then `cells` (the counts and the ' +
      'cells that finished since) as cells finish on any replica, then `finished` (status and counts) and the ' +
      'stream ends. A heartbeat comment every 15 s.',
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'The event stream' })
  @HttpCode(200)
  @Refuses(404)
  async events(
    @ValidParam('id', idSchema) id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    // A missing run (404) is found before the stream starts, so it is a normal JSON answer.
    const source = await this.runs.progressSource(id);
    reply.hijack();
    await streamRunProgress(reply.raw, source, {
      headers: { [REQUEST_ID_HEADER]: requestIdOf(request.raw) },
      stopping: this.runs.stopping,
      onError: (error) =>
        this.logger.warn({ err: error, runId: id }, 'run progress stream ended by an error'),
    });
  }

  @Post(':id/cancel')
  @RequireScope('suites:run')
  @Audited(auditActions.qaRunCancel, { target: { kind: 'qa-run', idParam: 'id' } })
  @ApiOperation({
    summary: 'Cancel a running run: pending cells are cancelled, running ones stop at once (audited)',
    description: 'A run that already completed or was cancelled is a 409.',
  })
  @DocumentsChangeReason()
  @Returns(200, suiteRunJsonSchema, 'The run, cancelled')
  @Refuses(404, 409)
  async cancel(
    @CurrentAuditContext() context: AuditContext,
    @ValidParam('id', idSchema) id: string,
    @ValidBody(cancelRunBody) _body: z.output<typeof cancelRunBody>,
  ): Promise<SuiteRunJson> {
    const run = await this.runs.cancel(id);
    context.describeChange({
      target: { kind: 'qa-run', id: run.id },
      details: { suiteId: run.suiteId, done: run.counts.done, total: run.counts.total },
    });
    return run;
  }

  @Get(':id/cells/:caseId/:targetIndex')
  @RequireScope('suites:read')
  @ApiOperation({
    summary:
      'One cell whole: what the lab keeps for a target (lowered schema, request, raw output, JSON, validation) and each assertion’s outcome',
  })
  @Returns(200, cellJsonSchema, 'The cell')
  @Refuses(404)
  cell(
    @ValidParam('id', idSchema) id: string,
    @ValidParam('caseId', caseIdParamSchema) caseId: string,
    @ValidParam('targetIndex', targetIndexSchema) targetIndex: number,
  ): Promise<CellJson> {
    return this.runs.cell(id, caseId, targetIndex);
  }

  @Get(':id/compare')
  @RequireScope('suites:read')
  @ApiOperation({
    summary: 'Compare a run with an earlier run of the same suite (the newest finished one by default)',
    description:
      'Cells are matched by case id and target label: regressions, fixes, unchanged, new and removed cases, ' +
      'and pass rates per target before and after. 404 when the suite has no earlier finished run; 400 when ' +
      '`against` is another suite’s run.',
  })
  @Returns(200, runComparisonJsonSchema, 'The comparison')
  @Refuses(404)
  compare(
    @ValidParam('id', idSchema) id: string,
    @ValidQuery(compareQuery) query: z.output<typeof compareQuery>,
  ): Promise<RunComparisonJson> {
    return this.runs.compare(id, query.against);
  }

  @Get(':id/compare/:caseId/:targetIndex')
  @RequireScope('suites:read')
  @ApiOperation({
    summary: 'One case on one target in both runs, with a JSON diff of the two outputs',
  })
  @Returns(200, cellComparisonJsonSchema, 'Both cells (null where a run lacks it) and the diff')
  @Refuses(404)
  compareCell(
    @ValidParam('id', idSchema) id: string,
    @ValidParam('caseId', caseIdParamSchema) caseId: string,
    @ValidParam('targetIndex', targetIndexSchema) targetIndex: number,
    @ValidQuery(compareQuery) query: z.output<typeof compareQuery>,
  ): Promise<CellComparisonJson> {
    return this.runs.compareCell(id, caseId, targetIndex, query.against);
  }
}
