import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { AuthModule } from '../auth/auth.module';
import { APP_CONFIG, LOGGER, REPOSITORIES } from '../core/tokens';
import type { Repositories } from '@agentdesk/storage';
import { AgentTurnService } from './agent-turn.service';
import { MessagesController } from './messages.controller';
import { ModelAccessModule } from '../model-access/model-access.module';
import { ModelRouter } from '../model-access/model-router';
import { builtInTools, ToolRegistry } from '@agentdesk/agent-tools';
import { AgentTurnRunner } from './turn/agent-turn-runner';
import { TurnLeaseSweeper } from './turn/turn-lease-sweeper';
import { SandboxRuntimeModule } from '../shared/sandbox-runtime/sandbox-runtime.module';
import { SandboxRuntime } from '../shared/sandbox-runtime/sandbox-runtime';
import { UsageMeter } from '../shared/metering/usage-meter';

/** The agent turn: tools, the turn runner, the lease sweeper and `POST /v1/sessions/:id/messages`. */
@Module({
  imports: [AuthModule, ModelAccessModule, SandboxRuntimeModule],
  controllers: [MessagesController],
  providers: [
    {
      provide: ToolRegistry,
      // The sandbox tools are offered only when the sandbox is enabled (they answer errors while it is down).
      useFactory: (sandbox: SandboxRuntime) => new ToolRegistry([...builtInTools(), ...sandbox.tools()]),
      inject: [SandboxRuntime],
    },
    {
      provide: AgentTurnRunner,
      useFactory: (
        repositories: Repositories,
        router: ModelRouter,
        tools: ToolRegistry,
        config: AppConfig,
        logger: Logger,
        usageMeter: UsageMeter,
      ) => new AgentTurnRunner({ repositories, router, tools, settings: config.turns, logger, usageMeter }),
      inject: [REPOSITORIES, ModelRouter, ToolRegistry, APP_CONFIG, LOGGER, UsageMeter],
    },
    AgentTurnService,
    TurnLeaseSweeper,
  ],
})
export class AgentModule {}
