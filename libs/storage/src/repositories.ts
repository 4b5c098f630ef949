import { systemClock, type Clock } from './clock';
import type { AppDatabase } from './open-database';
import { ApiKeysRepository } from './repositories/api-keys-repository';
import { AuditRepository } from './repositories/audit-repository';
import { ConsoleSessionsRepository } from './repositories/console-sessions-repository';
import { MessageSearchRepository } from './repositories/message-search-repository';
import { MessagesRepository } from './repositories/messages-repository';
import { SandboxBuildsRepository } from './repositories/sandbox-builds-repository';
import { SessionsRepository } from './repositories/sessions-repository';
import { SsoIdentitiesRepository } from './repositories/sso-identities-repository';
import { StructuredOutputRunsRepository } from './repositories/structured-output-runs-repository';
import { ToolResultsRepository } from './repositories/tool-results-repository';
import { TurnsRepository } from './repositories/turns-repository';
import { UsageRepository } from './repositories/usage-repository';
import { UsersRepository } from './repositories/users-repository';

/** Every repository over one database. */
export interface Repositories {
  readonly users: UsersRepository;
  readonly apiKeys: ApiKeysRepository;
  readonly sessions: SessionsRepository;
  readonly messages: MessagesRepository;
  readonly messageSearch: MessageSearchRepository;
  readonly toolResults: ToolResultsRepository;
  readonly audit: AuditRepository;
  readonly turns: TurnsRepository;
  readonly structuredOutputRuns: StructuredOutputRunsRepository;
  readonly sandboxBuilds: SandboxBuildsRepository;
  readonly usage: UsageRepository;
  readonly consoleSessions: ConsoleSessionsRepository;
  readonly ssoIdentities: SsoIdentitiesRepository;
}

/** Builds the repositories; `clock` defaults to the wall clock (tests inject their own). */
export function createRepositories(
  database: Pick<AppDatabase, 'db' | 'dialect'>,
  options: { clock?: Clock } = {},
): Repositories {
  const context = { db: database.db, dialect: database.dialect, clock: options.clock ?? systemClock };
  return {
    users: new UsersRepository(context),
    apiKeys: new ApiKeysRepository(context),
    sessions: new SessionsRepository(context),
    messages: new MessagesRepository(context),
    messageSearch: new MessageSearchRepository(context),
    toolResults: new ToolResultsRepository(context),
    audit: new AuditRepository(context),
    turns: new TurnsRepository(context),
    structuredOutputRuns: new StructuredOutputRunsRepository(context),
    sandboxBuilds: new SandboxBuildsRepository(context),
    usage: new UsageRepository(context),
    consoleSessions: new ConsoleSessionsRepository(context),
    ssoIdentities: new SsoIdentitiesRepository(context),
  };
}
