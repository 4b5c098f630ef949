import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DestinationStream, Logger } from 'pino';
import { AppModule } from './app.module';
import { AuditTrail, registerAuditTrail } from './shared/audit/audit-trail';
import { FailedAttemptBudget } from './shared/audit/failed-attempt-budget';
import { recordAdminKeyStoredAtStart } from './shared/audit/host-command-audit';
import { bootstrapAccess, type BootstrapResult } from './auth/bootstrap-access';
import { describeConfig, type AppConfig } from './config/app-config';
import { refuseForeignDevModeRequests } from './http/dev-mode-request-guard';
import { createHttpErrorHandling, refuseRequestsWhileClosing } from './http/http-error-handling';
import { answerUnknownExpectations, refuseMissingOrRepeatedHost } from './http/host-header';
import { acceptOnlyJsonBodies } from './http/json-bodies';
import { refuseUndecodableQueryString } from './http/query-encoding';
import { registerSecurityHeaders } from './http/security-headers';
import { childLoggerWithClientRequestId, REQUEST_ID_HEADER, requestIdOf } from './http/request-id';
import { StreamingFastifyAdapter } from './http/streaming-fastify-adapter';
import { synchronousHook } from './http/synchronous-hook';
import { createLogger } from './logging/create-logger';
import { openAIErrorShape } from './openai-compat/openai-error-shape';
import { NestPinoLogger } from './logging/nest-pino-logger';
import { ApiMetrics } from './metrics/api-metrics';
import { registerHttpMetrics } from './metrics/http-metrics-hook';
import { buildOpenApiDocument, OpenApiDocumentHolder } from './openapi/openapi-document';
import { RegisteredRoutes, RouteInventory } from './routes/route-inventory';
import {
  createRepositories,
  migrateToLatest,
  openDatabase,
  parseDatabaseUrl,
  type AppDatabase,
  type Clock,
  type Repositories,
} from '@agentdesk/storage';

/** Test and benchmark seams; production passes none. */
export interface CreateAppOptions {
  /** An open database to use (tests); it stays open when the app closes. Otherwise `config.database` is opened and closed with the app. */
  readonly database?: AppDatabase;
  /** The repositories' clock (tests). */
  readonly clock?: Clock;
  /** Where log lines go (tests capture them); stdout otherwise. */
  readonly logDestination?: DestinationStream;
  /** Extra Nest modules mounted next to the API's own (tests: a route without a policy must be refused). */
  readonly extraModules?: readonly Type[];
}

/** A created (not yet listening) API. */
export interface AgentDeskApi {
  readonly app: NestFastifyApplication;
  readonly config: AppConfig;
  readonly database: AppDatabase;
  readonly repositories: Repositories;
  readonly bootstrap: BootstrapResult;
  readonly logger: Logger;
  /** Listens on the configured host and port; returns the base URL. */
  listen(): Promise<string>;
  /** Stops the app, and closes the database when `createApp` opened it. */
  close(): Promise<void>;
}

/**
 * Builds the API: opens and migrates the database, ensures an admin key (and the dev-mode user),
 * then starts Nest on Fastify with the global guard, the error filter, request ids, metrics and
 * the OpenAPI document. Used by `main.ts`, the tests and the benchmarks.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<AgentDeskApi> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const ownsDatabase = options.database === undefined;
  const database = options.database ?? openConfiguredDatabase(config, logger);
  try {
    await migrateToLatest(database);
    const repositories = createRepositories(
      database,
      options.clock === undefined ? {} : { clock: options.clock },
    );
    const bootstrap = await bootstrapAccess(repositories, config, logger);
    if (bootstrap.storedAdminKey !== undefined)
      await recordAdminKeyStoredAtStart(repositories, bootstrap.storedAdminKey, 'environment');
    // Turns a crash interrupted are marked failed so their sessions take messages again. A SQLite
    // file has one server process, so every running turn at start is stale; on PostgreSQL other
    // replicas may be mid-turn, so only expired leases are (the rest are swept once they expire:
    // see TurnLeaseSweeper).
    const recovered = await repositories.turnStore.recoverInterrupted({ all: database.dialect === 'sqlite' });
    if (recovered.messages > 0 || recovered.sessions > 0) {
      logger.warn(
        { interruptedTurns: recovered.sessions, failedMessages: recovered.messages },
        'marked turns interrupted by a previous stop as failed',
      );
    }
    const app = await startNest(config, {
      database,
      repositories,
      bootstrap,
      logger,
      extraModules: options.extraModules ?? [],
    });
    return {
      app,
      config,
      database,
      repositories,
      bootstrap,
      logger,
      async listen() {
        await app.listen({ host: config.http.host, port: config.http.port });
        const address = app.getHttpServer().address();
        const port = typeof address === 'object' && address !== null ? address.port : config.http.port;
        const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
        return `http://${host}:${port}`;
      },
      async close() {
        try {
          await app.close();
        } finally {
          if (ownsDatabase) await database.destroy();
        }
      },
    };
  } catch (error) {
    if (ownsDatabase) await database.destroy();
    throw error;
  }
}

async function startNest(
  config: AppConfig,
  prepared: {
    database: AppDatabase;
    repositories: Repositories;
    bootstrap: BootstrapResult;
    logger: Logger;
    extraModules: readonly Type[];
  },
): Promise<NestFastifyApplication> {
  const { logger } = prepared;
  const metrics = new ApiMetrics();
  const registeredRoutes = new RegisteredRoutes();
  const errorHandling = createHttpErrorHandling({
    logger,
    metrics,
    routes: registeredRoutes.routes,
    pathShapes: [openAIErrorShape],
  });
  const adapter = new StreamingFastifyAdapter({
    loggerInstance: logger,
    bodyLimit: config.http.bodyLimitBytes,
    genReqId: requestIdOf,
    childLoggerFactory: childLoggerWithClientRequestId,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    trustProxy: false,
    frameworkErrors: errorHandling.frameworkErrors,
    clientErrorHandler: errorHandling.clientErrorHandler,
    // Fastify's own 503 while closing has Fastify's body; `refuseRequestsWhileClosing` answers in ours.
    return503OnClosing: false,
    // Node's own empty 400 for a missing Host: `refuseMissingOrRepeatedHost` answers in our body.
    http: { requireHostHeader: false },
  });
  const fastify = adapter.getInstance();
  // First, so every answer carries them, the refusals of the hooks below included.
  await registerSecurityHeaders(fastify, config.securityHeaders);
  answerUnknownExpectations(fastify.server);
  acceptOnlyJsonBodies(fastify, config.http.bodyLimitBytes);
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.routes.push({ method, path: route.url });
  });
  fastify.addHook(
    'onRequest',
    synchronousHook((request, reply) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
    }),
  );
  refuseRequestsWhileClosing(fastify);
  // Dev mode's own Host check (403) comes first; elsewhere a missing or repeated Host is a 400.
  if (config.auth.devMode) fastify.addHook('onRequest', synchronousHook(refuseForeignDevModeRequests));
  fastify.addHook('onRequest', synchronousHook(refuseMissingOrRepeatedHost));
  fastify.addHook('onRequest', synchronousHook(refuseUndecodableQueryString));
  registerHttpMetrics(fastify, metrics);
  // Every call of an @Audited route, refused ones included: it learns which routes once Nest made them.
  const auditTrail = new AuditTrail(
    prepared.repositories,
    metrics,
    logger,
    new FailedAttemptBudget(config.rateLimit.authFailuresMax, config.rateLimit.windowMs),
  );
  registerAuditTrail(fastify, auditTrail);

  const openApiDocument = new OpenApiDocumentHolder();
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(
      {
        config,
        database: prepared.database,
        repositories: prepared.repositories,
        logger,
        metrics,
        access: {
          devUserId: prepared.bootstrap.devUserId,
        },
        openApiDocument,
        registeredRoutes,
      },
      prepared.extraModules,
    ),
    adapter,
    // abortOnError false: a failing start throws to the caller instead of exiting the process.
    // bodyParser false: Nest would add a form parser; `acceptOnlyJsonBodies` decides the formats.
    { logger: new NestPinoLogger(logger), abortOnError: false, bodyParser: false },
  );
  try {
    app.useGlobalFilters(errorHandling.filter);
    await app.init();
    openApiDocument.set(buildOpenApiDocument(app));
    auditTrail.useRoutes(app.get(RouteInventory).routes());
    await fastify.ready();
    warnAboutUnguardedRoutes(app, logger);
  } catch (error) {
    await app.close();
    throw error;
  }

  logger.info({ config: describeConfig(config) }, 'AgentDesk API configured');
  if (config.auth.devMode) {
    logger.warn(
      'DEV MODE IS ON: requests without an API key act as the local anonymous user. Never enable AGENTDESK_DEV_MODE on a shared or exposed machine.',
    );
  }
  return app;
}

// The guard already refuses such routes; saying so at start makes the mistake visible at once.
function warnAboutUnguardedRoutes(app: NestFastifyApplication, logger: Logger): void {
  for (const route of app.get(RouteInventory).routes()) {
    if (route.policy === undefined) {
      logger.error(
        { method: route.method, path: route.path },
        'route has no access policy (@Public or @RequireScope); every call is refused',
      );
    }
  }
}

function openConfiguredDatabase(config: AppConfig, logger: Logger): AppDatabase {
  const url = config.database.url.reveal();
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite' && target.filename !== ':memory:')
    mkdirSync(dirname(target.filename), { recursive: true });
  return openDatabase({
    url,
    poolSize: config.database.poolSize,
    onIdleClientError: (error) =>
      logger.warn({ err: error }, 'an idle database connection failed; it was discarded'),
  });
}
