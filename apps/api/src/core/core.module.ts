import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { ApiMetrics } from '../metrics/api-metrics';
import { OpenApiDocumentHolder } from '../openapi/openapi-document';
import { RegisteredRoutes } from '../routes/route-inventory';
import type { AppDatabase, Repositories } from '@agentdesk/storage';
import type { AccessContext } from './access-context';
import { ACCESS_CONTEXT, APP_CONFIG, APP_DATABASE, LOGGER, REPOSITORIES } from './tokens';

/** Everything created before Nest starts (config, database, logger, metrics), made injectable. */
export interface CoreValues {
  readonly config: AppConfig;
  readonly database: AppDatabase;
  readonly repositories: Repositories;
  readonly logger: Logger;
  readonly metrics: ApiMetrics;
  readonly access: AccessContext;
  readonly openApiDocument: OpenApiDocumentHolder;
  readonly registeredRoutes: RegisteredRoutes;
}

@Global()
@Module({})
export class CoreModule {
  static forRoot(values: CoreValues): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: values.config },
      { provide: APP_DATABASE, useValue: values.database },
      { provide: REPOSITORIES, useValue: values.repositories },
      { provide: LOGGER, useValue: values.logger },
      { provide: ACCESS_CONTEXT, useValue: values.access },
      { provide: ApiMetrics, useValue: values.metrics },
      { provide: OpenApiDocumentHolder, useValue: values.openApiDocument },
      { provide: RegisteredRoutes, useValue: values.registeredRoutes },
    ];
    return { module: CoreModule, providers, exports: providers.map((provider) => provider.provide) };
  }
}
