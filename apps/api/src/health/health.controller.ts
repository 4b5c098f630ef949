import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { sql } from 'kysely';
import { z } from 'zod';
import { Public } from '../routes/route-policy';
import { APP_DATABASE } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { Refuses, Returns } from '../http/openapi-decorators';
import type { AppDatabase } from '@agentdesk/storage';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';

const readinessTimeoutMs = 2_000;

const serviceInfoSchema = z.object({ service: z.string(), docs: z.string(), openapi: z.string() });
const healthSchema = z.object({ status: z.literal('ok') });
const readinessSchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['sqlite', 'postgres']),
  // A sandbox without its engine degrades agent tools and the sandbox routes, not the API.
  sandbox: z.object({
    status: z.enum(['ready', 'degraded', 'disabled']),
    engine: z.string(),
    message: z.string().optional(),
  }),
});

/** Liveness, readiness and the service root; all public. */
@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(APP_DATABASE) private readonly database: AppDatabase,
    @Inject(SandboxRuntime) private readonly sandbox: SandboxRuntime,
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
    return { status: 'ready', database: this.database.dialect, sandbox: await this.sandbox.health() };
  }
}
