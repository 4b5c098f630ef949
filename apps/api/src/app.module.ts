import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { SearchModule } from './search/search.module';
import { UsageModule } from './usage/usage.module';
import { ModelPricesModule } from './prices/model-prices.module';
import { QaModule } from './qa/qa.module';
import { AgentModule } from './agent/agent.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { ClusterModule } from './cluster/cluster.module';
import { ConsoleSessionsModule } from './console-sessions/console-sessions.module';
import { CoreModule, type CoreValues } from './core/core.module';
import { HealthModule } from './health/health.module';
import { IdentityModule } from './identity/identity.module';
import { LabModule } from './lab/lab.module';
import { MetricsModule } from './metrics/metrics.module';
import { OpenAICompatModule } from './openai-compat/openai-compat.module';
import { OpenApiModule } from './openapi/openapi.module';
import { RoutesModule } from './routes/routes.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { SessionsModule } from './sessions/sessions.module';
import { SsoModule } from './sso/sso.module';
import { UsageMeterModule } from './shared/metering/usage-meter.module';
import { LiveTurnsModule } from './shared/live-turns/live-turns.module';

/** The API: one module per concern over the core values `createApp` prepared. */
@Module({})
export class AppModule {
  static forRoot(core: CoreValues, extraModules: readonly Type[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(core),
        ClusterModule,
        AuthModule,
        SsoModule,
        SessionsModule,
        AgentModule,
        AdminModule,
        LabModule,
        ApiKeysModule,
        AuditModule,
        ConsoleSessionsModule,
        HealthModule,
        IdentityModule,
        MetricsModule,
        OpenAICompatModule,
        OpenApiModule,
        RoutesModule,
        SandboxModule,
        SearchModule,
        UsageMeterModule,
        LiveTurnsModule,
        UsageModule,
        ModelPricesModule,
        QaModule,
        ...extraModules,
      ],
    };
  }
}
