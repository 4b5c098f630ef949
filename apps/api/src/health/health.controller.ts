import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { sql } from 'kysely';
import { z } from 'zod';
import { Public } from '../routes/route-policy';
import { APP_DATABASE } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { Refuses, Returns } from '../http/openapi-decorators';
import type { AppDatabase } from '@agentdesk/storage';
import { SandboxRuntime } from '../shared/sandbox-runtime/sandbox-runtime';
import { SHARED_STATE } from '../cluster/cluster-tokens';
import { rateLimitsStatus, rateLimitsStatusSchema, type SharedState } from '../cluster/shared-state';

const readinessTimeoutMs = 2_000;

const serviceInfoSchema = z.object({ service: z.string(), docs: z.string(), openapi: z.string() });
const healthSchema = z.object({ status: z.literal('ok') });
const sandboxHealthSchema = z.object({
  status: z
    .enum(['ready', 'starting', 'degraded', 'disabled'])
    .describe(
      'ready: started and the engine answers; starting: the first start runs; degraded: the engine is unreachable or the start failed (see message); disabled: turned off',
    ),
  engine: z.string(),
  message: z.string().optional().describe('Why it is not ready: the engine’s or the start’s error'),
});
const readinessSchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['sqlite', 'postgres']),
  // A sandbox that cannot start degrades agent tools and the sandbox routes, not the API.
  sandbox: sandboxHealthSchema,
  // Likewise Redis: without it each replica counts its own rate limits, and says so here.
  rateLimits: rateLimitsStatusSchema,
});
const sandboxReadinessSchema = sandboxHealthSchema.extend({ status: z.literal('ready') });

/** Liveness, readiness and the service root; all public. */
@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(APP_DATABASE) private readonly database: AppDatabase,
    @Inject(SandboxRuntime) private readonly sandbox: SandboxRuntime,
    @Inject(SHARED_STATE) private readonly sharedState: SharedState,
  ) {}

  @Get()
  @ApiOperation({ summary: 'What this service is and where its documentation lives' })
  @Returns(200, serviceInfoSchema, 'Service information')
  root(): z.infer<typeof serviceInfoSchema> {
    return { service: 'agentdesk-api', docs: '/docs', openapi: '/openapi.json' };
  }

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @Returns(200, healthSchema, 'Alive')
  health(): z.infer<typeof healthSchema> {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({
    summary:
      'Readiness: the database answers (the sandbox engine is reported, and never makes the API unready)',
  })
  @Returns(200, readinessSchema, 'Ready')
  @Refuses(503)
  async ready(): Promise<z.infer<typeof readinessSchema>> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sql`select 1`.execute(this.database.db),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('database ping timed out')), readinessTimeoutMs);
        }),
      ]);
    } catch (error) {
      throw new ApiError(ApiErrorCode.NotReady, 'The database is not reachable', { cause: error });
    } finally {
      clearTimeout(timer);
    }
    return {
      status: 'ready',
      database: this.database.dialect,
      sandbox: await this.sandbox.health(),
      rateLimits: rateLimitsStatus(this.sharedState),
    };
  }

  @Get('readyz/sandbox')
  @ApiOperation({
    summary: 'Readiness of the sandbox alone, for operators who gate on it',
    description:
      '200 once the sandbox has started and its Docker engine answers; 503 with the reason while it starts, ' +
      'cannot start (e.g. its base image is missing), its engine is unreachable, or it is disabled. ' +
      '/readyz stays 200 in all these cases: the sandbox never makes the API unready.',
  })
  @Returns(200, sandboxReadinessSchema, 'The sandbox is ready')
  @Refuses(503)
  async sandboxReady(): Promise<z.infer<typeof sandboxReadinessSchema>> {
    const health = await this.sandbox.health();
    if (health.status === 'ready') return { ...health, status: 'ready' };
    const reason =
      health.status === 'disabled'
        ? 'it is disabled on this server (AGENTDESK_SANDBOX_ENABLED=false)'
        : `${health.status}: ${health.message ?? 'no detail'}`;
    throw new ApiError(
      ApiErrorCode.NotReady,
      `The sandbox is not ready (engine ${health.engine}): ${reason}`,
    );
  }
}
