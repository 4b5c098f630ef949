// The storage layer's surface for the rest of the API (HTTP layer, bootstrap, benchmarks).
export {
  openDatabase,
  parseDatabaseUrl,
  type AppDatabase,
  type DatabaseConfig,
  type DatabaseTarget,
} from './open-database';
export { explainDatabaseOpenFailure } from './database-open-failure';
export type { DatabaseDialect } from './database-dialect';
export type { Database } from './database-schema';
export { migrateToLatest } from './migrate';
export { createRepositories, type Repositories } from './repositories';
export { systemClock, type Clock } from './clock';
export { newId, isId } from './ids';
export type { JsonObject, JsonValue } from './json';
export { findUnstorableText, unstorableTextProblem, type UnstorableText } from './storable-text';
export {
  DEFAULT_PAGE_SIZE,
  MAX_MESSAGE_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_CURSOR_LENGTH,
  CURSOR_OF_ANOTHER_SORT,
  clampPageSize,
  type Page,
  type PageRequest,
} from './pagination';
export { EXPORT_CHUNK_SIZE, type ExportChunks } from './sorted-page';
export type { UsageEvent, UsageEventFilter } from './repositories/usage-events-export';
export { StorageError, StorageErrorCode, isStorageError, type StorageEntity } from './storage-error';
export type { User } from './models/user';
export type { ApiKey, ApiKeyHolder } from './models/api-key';
export type { Session, SessionStatus, TokenUsage } from './models/session';
export type { Message, MessageRole, MessageStatus } from './models/message';
export type { ToolResult, ToolResultSummary } from './models/tool-result';
export {
  auditActorKinds,
  auditOutcomes,
  type AuditActorKind,
  type AuditEntry,
  type AuditOutcome,
  type AuditTarget,
} from './models/audit-entry';
export type { StructuredOutputRun } from './models/structured-output-run';
export { UsersRepository, type NewUser, type UserListFilter } from './repositories/users-repository';
export {
  PeopleRepository,
  type DayRange,
  type PeopleFilter,
  type Person,
  type PersonUsage,
} from './repositories/people-repository';
export {
  ApiKeysRepository,
  LAST_USED_WRITE_INTERVAL_MS,
  type ApiKeyListFilter,
  type NewApiKey,
} from './repositories/api-keys-repository';
export {
  SessionsRepository,
  type AdminSessionFilter,
  type NewSession,
  type SessionListFilter,
  type SessionPatch,
} from './repositories/sessions-repository';
export { TurnStore } from './repositories/transcript/turn-store';
export { TranscriptReads } from './repositories/transcript/transcript-reads';
export type {
  AppendedMessage,
  AppendedMessages,
  NewMessage,
  NewMessages,
} from './repositories/transcript/message-append';
export type { AnswerOutcome, FailureOutcome, FinishOptions } from './repositories/transcript/message-finish';
export type {
  HistoryMessage,
  HistoryPageRequest,
  TokenCountFill,
} from './repositories/transcript/message-reads';
export {
  MAX_SEARCH_TERMS,
  PREFIX_MIN_LENGTH,
  ignoredSearchTermsOf,
  patternMatchesWord,
  searchPatternsOf,
  searchTermsOf,
  type MessageSearchFilters,
  type MessageSearchHit,
  type SearchPattern,
} from './repositories/transcript/message-search';
export type { NewToolResult } from './repositories/transcript/tool-result-writes';
export {
  interruptedTurnError,
  type AcquiredLease,
  type RecoveredTurns,
} from './repositories/transcript/turn-lease';
export {
  costMicrosOf,
  UNPRICED,
  type CallCost,
  type ModelPrice,
  type TokenPrices,
} from './models/model-price';
export { PriceTable } from './models/price-table';
export { ModelPricesRepository, type NewModelPrice } from './repositories/model-prices-repository';
export {
  UsageRepository,
  utcDayOf,
  type DailyUsageRow,
  type NewUsageEvent,
  type UsageDayRange,
  type UsageGroupColumn,
  type UsageSource,
  type UsageStatus,
} from './repositories/usage-repository';
export {
  AuditRepository,
  type AuditListFilter,
  type AuditRecordQuery,
  type NewAuditEntry,
} from './repositories/audit-repository';
export {
  StructuredOutputRunsRepository,
  type NewStructuredOutputRun,
} from './repositories/structured-output-runs-repository';
export type { SandboxBuild, SandboxBuildStatus, SandboxBuildTrigger } from './models/sandbox-build';
export {
  SandboxBuildsRepository,
  type NewSandboxBuild,
  type SandboxBuildOutcome,
} from './repositories/sandbox-builds-repository';
export {
  consoleSessionEndReasons,
  consoleWaysIn,
  type ConsoleSession,
  type ConsoleSessionEndReason,
  type ConsoleSessionStatus,
  type ConsoleWayIn,
} from './models/console-session';
export {
  ConsoleSessionsRepository,
  type ConsoleSessionListFilter,
  type NewConsoleSession,
  type OpenConsoleSession,
} from './repositories/console-sessions-repository';
export type { SsoIdentity, SsoRole } from './models/sso-identity';
export {
  SsoIdentitiesRepository,
  type ProvisionedSsoUser,
  type SsoSignInProfile,
} from './repositories/sso-identities-repository';
export type { QaSuite, QaSuiteVersion } from './models/qa-suite';
export type {
  QaCellStatus,
  QaFinishedCellStatus,
  QaRunCell,
  QaRunCellWithResult,
  QaRunCounts,
  QaRunStatus,
  QaSuiteRun,
} from './models/qa-run';
export {
  QaSuitesRepository,
  type NewQaSuite,
  type NewQaSuiteVersion,
  type SavedQaSuite,
} from './repositories/qa-suites-repository';
export {
  CANCELLED_CELL_REASON,
  QaRunsRepository,
  type NewQaRunCell,
  type NewQaSuiteRun,
  type QaCellOutcome,
  type QaLeaseState,
} from './repositories/qa-runs-repository';
