import { systemClock, type Clock } from './clock';
import type { AppDatabase } from './open-database';
import { ApiKeysRepository } from './repositories/api-keys-repository';
import { AuditRepository } from './repositories/audit-repository';
import { ConsoleSessionsRepository } from './repositories/console-sessions-repository';
import { ModelPricesRepository } from './repositories/model-prices-repository';
import { PeopleRepository } from './repositories/people-repository';
import { QaRunsRepository } from './repositories/qa-runs-repository';
import { QaSuitesRepository } from './repositories/qa-suites-repository';
import { SandboxBuildsRepository } from './repositories/sandbox-builds-repository';
import { SessionsRepository } from './repositories/sessions-repository';
import { SsoIdentitiesRepository } from './repositories/sso-identities-repository';
import { StructuredOutputRunsRepository } from './repositories/structured-output-runs-repository';
import { TranscriptReads } from './repositories/transcript/transcript-reads';
import { TurnStore } from './repositories/transcript/turn-store';
import { UsageRepository } from './repositories/usage-repository';
import { UsersRepository } from './repositories/users-repository';

/** Every repository over one database. */
export interface Repositories {
  readonly users: UsersRepository;
  readonly apiKeys: ApiKeysRepository;
  readonly sessions: SessionsRepository;
  /** An agent turn's writes: the session lease, its messages, tool results. */
  readonly turnStore: TurnStore;
  /** Reads of the transcript: pages, a turn's history, tool results, search. */
  readonly transcript: TranscriptReads;
  readonly audit: AuditRepository;
  readonly structuredOutputRuns: StructuredOutputRunsRepository;
  readonly sandboxBuilds: SandboxBuildsRepository;
  readonly usage: UsageRepository;
  /** Model price versions (append-only). */
  readonly modelPrices: ModelPricesRepository;
  readonly consoleSessions: ConsoleSessionsRepository;
  readonly ssoIdentities: SsoIdentitiesRepository;
  /** The people directory: users with their email, role, sessions and usage; names for pages of ids. */
  readonly people: PeopleRepository;
  /** QA suites and their versions. */
  readonly qaSuites: QaSuitesRepository;
  /** QA suite runs and their cells (claimed, leased and finished by workers). */
  readonly qaRuns: QaRunsRepository;
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
    turnStore: new TurnStore(context),
    transcript: new TranscriptReads(context),
    audit: new AuditRepository(context),
    structuredOutputRuns: new StructuredOutputRunsRepository(context),
    sandboxBuilds: new SandboxBuildsRepository(context),
    usage: new UsageRepository(context),
    modelPrices: new ModelPricesRepository(context),
    consoleSessions: new ConsoleSessionsRepository(context),
    ssoIdentities: new SsoIdentitiesRepository(context),
    people: new PeopleRepository(context),
    qaSuites: new QaSuitesRepository(context),
    qaRuns: new QaRunsRepository(context),
  };
}
