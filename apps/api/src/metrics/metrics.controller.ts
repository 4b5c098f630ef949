import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../routes/route-policy';
import { Returns } from '../http/openapi-decorators';
import { ApiMetrics } from './api-metrics';

/** Prometheus scrape endpoint. Public like /healthz: the server binds to loopback unless configured otherwise. */
@ApiTags('health')
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(ApiMetrics) private readonly metrics: ApiMetrics) {}

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  @ApiProduces('text/plain')
  @Returns(200, undefined, 'Metrics')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.type(this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
