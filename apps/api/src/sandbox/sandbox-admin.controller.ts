import type { Page } from '@agentdesk/storage';
import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { auditActions } from '../shared/audit/audit-actions';
import { Audited } from '../shared/audit/audited';
import { CurrentAuditContext } from '../shared/audit/audit-context';
import { AUDIT_REASON_HEADER } from '../shared/audit/audit-reason';
import type { AuditContext } from '../shared/audit/cross-user-audit';
import { RequireScope } from '../routes/route-policy';
import { ApiKeyAuthenticated, Refuses, Returns } from '../http/openapi-decorators';
import { REQUEST_ID_HEADER, requestIdOf } from '../http/request-id';
import { ValidBody, ValidParam, ValidQuery } from '../http/validated';
import { streamBuildLog } from './build-event-stream';
import { SandboxAdminService } from './sandbox-admin.service';
import {
  buildIdSchema,
  containerIdSchema,
  listBuildsQuery,
  rebuildBody,
  repinBody,
  type RebuildBody,
} from './sandbox-inputs';
import {
  buildJsonSchema,
  buildWithLogJsonSchema,
  containerJsonSchema,
  imageStatusJsonSchema,
  pageJsonSchema,
  pinReportJsonSchema,
  rebuildAcceptedJsonSchema,
  type BuildJson,
  type BuildWithLogJson,
  type ContainerJson,
  type ImageStatusJson,
} from '@agentdesk/api-contract';

const auditReasonHeader = {
  name: AUDIT_REASON_HEADER,
  required: false,
  description: 'Why you do this (kept in the audit log)',
};

/**
 * The sandbox for admins (mutations, audited) and viewers (reads): the image and its pin, builds
 * with a replayable log, and the containers. An unreachable Docker engine answers 503 saying so;
 * the rest of the API is unaffected.
 */
@ApiTags('sandbox')
@ApiKeyAuthenticated()
@Refuses(400, 401, 403, 429, 503)
@Controller('v1/admin/sandbox')
export class SandboxAdminController {
  constructor(@Inject(SandboxAdminService) private readonly sandbox: SandboxAdminService) {}

  @Get('image')
  @RequireScope('sandbox:read')
  @ApiOperation({
    summary: 'The sandbox image: tag, id, version and content-hash labels vs this server, size, pin state',
  })
  @Returns(200, imageStatusJsonSchema, 'The image and its pins')
  image(): Promise<ImageStatusJson> {
    return this.sandbox.imageStatus();
  }

  @Post('image/rebuild')
  @RequireScope('sandbox:manage')
  @Audited(auditActions.sandboxImageRebuild, { target: { kind: 'sandbox-image' } })
  @ApiOperation({
    summary: 'Rebuild the sandbox image (answers at once with the build id; follow its events)',
    description:
      'Joins the build already running, if any. A failed build keeps the previous image and tag working. ' +
      'Audited with the caller.',
  })
  @ApiHeader(auditReasonHeader)
  @Returns(202, rebuildAcceptedJsonSchema, 'The build started')
  async rebuild(
    @CurrentAuditContext() actor: AuditContext,
    @ValidBody(rebuildBody) body: RebuildBody,
  ): Promise<z.infer<typeof rebuildAcceptedJsonSchema>> {
    const { buildId } = await this.sandbox.rebuild(actor, body?.force ?? true);
    return {
      buildId,
      status: 'running',
      build: `/v1/admin/sandbox/builds/${buildId}`,
      events: `/v1/admin/sandbox/builds/${buildId}/events`,
    };
  }

  @Post('image/repin')
  @RequireScope('sandbox:manage')
  @Audited(auditActions.sandboxImageRepin, { target: { kind: 'sandbox-image' } })
  @ApiOperation({
    summary:
      'Ensure both pin containers (image and base) run on their images’ current ids (re-created when missing, stopped or stale)',
    description:
      'Answers the image pin’s report; the base pin’s state is on GET /v1/admin/sandbox/image. Audited with the caller.',
  })
  @ApiHeader(auditReasonHeader)
  @Returns(200, pinReportJsonSchema, 'What the re-pin did: pinned, already-pinned, no-image or failed')
  repin(
    @CurrentAuditContext() actor: AuditContext,
    @ValidBody(repinBody) _body: z.output<typeof repinBody>,
  ): Promise<z.infer<typeof pinReportJsonSchema>> {
    return this.sandbox.repin(actor);
  }

  @Get('builds')
  @RequireScope('sandbox:read')
  @ApiOperation({
    summary: 'Build history, newest first: who, when, result, duration, image ids before and after',
  })
  @Returns(200, pageJsonSchema(buildJsonSchema), 'One page of builds')
  builds(@ValidQuery(listBuildsQuery) query: z.output<typeof listBuildsQuery>): Promise<Page<BuildJson>> {
    return this.sandbox.builds({ limit: query.limit, cursor: query.cursor ?? null });
  }

  @Get('builds/:id')
  @RequireScope('sandbox:read')
  @ApiOperation({ summary: 'One build with its log so far' })
  @Returns(200, buildWithLogJsonSchema, 'The build')
  @Refuses(404)
  build(@ValidParam('id', buildIdSchema) id: string): Promise<BuildWithLogJson> {
    return this.sandbox.build(id);
  }

  @Get('builds/:id/events')
  @RequireScope('sandbox:read')
  @ApiOperation({
    summary: 'A build’s log as Server-Sent Events, replayed from the start, then live until build-end',
    description:
      'Events: build-start, step, progress, line, error, build-end (noun-verb, JSON data). A finished ' +
      'build replays its stored log and ends.',
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'The event stream' })
  @HttpCode(200)
  @Refuses(404)
  async buildEvents(
    @ValidParam('id', buildIdSchema) id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    // Errors (404) are found before the stream starts, so they are normal JSON answers.
    const source = await this.sandbox.buildLog(id);
    reply.hijack();
    await streamBuildLog(reply.raw, { [REQUEST_ID_HEADER]: requestIdOf(request.raw) }, source);
  }

  @Get('containers')
  @RequireScope('sandbox:read')
  @ApiOperation({
    summary: 'This installation’s sandbox containers: session, owner, state, image id, age, last use',
    description:
      'Session and warm-pool containers; the pins are on GET /v1/admin/sandbox/image. Names other users’ sessions: each listing is audited (its count).',
  })
  @ApiHeader(auditReasonHeader)
  @Returns(200, z.object({ items: z.array(containerJsonSchema) }), 'Every session and warm-pool container')
  async containers(@CurrentAuditContext() actor: AuditContext): Promise<{ items: ContainerJson[] }> {
    return { items: await this.sandbox.containers(actor) };
  }

  @Delete('containers/:id')
  @RequireScope('sandbox:manage')
  @Audited(auditActions.sandboxContainerRemove, { target: { kind: 'sandbox-container', idParam: 'id' } })
  @ApiOperation({
    summary:
      'Remove one of this installation’s containers (a session’s sandbox is re-created on its next use)',
    description:
      'Session and warm-pool containers only: a pin (by name or id) answers 409, pins are managed on the image route (re-pin).',
  })
  @ApiHeader(auditReasonHeader)
  @Returns(204, undefined, 'Removed')
  @Refuses(404, 409)
  async removeContainer(
    @CurrentAuditContext() actor: AuditContext,
    @ValidParam('id', containerIdSchema) id: string,
  ): Promise<void> {
    await this.sandbox.removeContainer(actor, id);
  }
}
