import type { FastifyInstance } from 'fastify';
import type { ApiMetrics } from './api-metrics';

/** Observes every answered request by route template (never the raw URL: ids would explode cardinality). */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: ApiMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
