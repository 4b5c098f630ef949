export {
  apiKeyJsonSchema,
  apiKeyRoles,
  createdApiKeyJsonSchema,
  type ApiKeyJson,
  type ApiKeyRole,
  type CreatedApiKeyJson,
} from './api-keys';
export { auditEntryJsonSchema, auditOutcomeSchema, type AuditOutcomeJson } from './audit';
export { ApiErrorCode, errorBodySchema, type ErrorBody } from './errors';
export { identityJsonSchema, type IdentityJson } from './identity';
export { pageJsonSchema, type PageJson } from './pages';
export {
  messageJsonSchema,
  sessionJsonSchema,
  sessionWithMessagesJsonSchema,
  type MessageJson,
  type MessageRole,
  type SessionJson,
  type SessionWithMessagesJson,
} from './sessions';
export {
  compressionEventJsonSchema,
  contentPartJsonSchema,
  imagePartJsonSchema,
  messageErrorJsonSchema,
  textPartJsonSchema,
  toolCallJsonSchema,
  truncatedItemJsonSchema,
  type CompressionEventJson,
  type ContentPartJson,
  type ImagePartJson,
  type MessageErrorJson,
  type StoredCompressionEvent,
  type StoredContentPart,
  type StoredToolCall,
  type TextPartJson,
  type ToolCallJson,
  type TruncatedItemJson,
} from './transcript-parts';
export {
  isTurnErrorCode,
  turnErrorCodeOf,
  turnErrorCodes,
  turnErrorJsonSchema,
  type TurnError,
  type TurnErrorCode,
} from './turn-errors';
export type { KnownFields } from './known-fields';
export { tokenUsageJsonSchema, type TokenUsageJson } from './usage';
export { costJsonFields, costJsonOf, type CostJson } from './cost';
export {
  microsToUsd,
  modelPriceJsonSchema,
  modelPriceListJsonSchema,
  newModelPriceBodySchema,
  priceProviders,
  usdPerMillionSchema,
  usdToMicros,
  type ModelPriceJson,
  type ModelPriceListJson,
  type NewModelPriceBody,
} from './model-prices';
export { userJsonSchema, type UserJson } from './users';
export {
  MAX_PERSON_NAME_LENGTH,
  personJsonSchema,
  personRoles,
  personUsageJsonSchema,
  type PersonJson,
  type PersonUsageJson,
} from './people';
export {
  MAX_SEARCH_QUERY_LENGTH,
  messageSearchHitJsonSchema,
  messageSearchPageJsonSchema,
  snippetHighlightJsonSchema,
  type MessageSearchHitJson,
  type MessageSearchPageJson,
  type SnippetHighlightJson,
} from './search';
export {
  liveDroppedEventSchema,
  liveFeedEventSchema,
  liveSnapshotEventSchema,
  liveTurnEventSchema,
  type LiveFeedEvent,
  type LiveSnapshotEvent,
  type LiveTurnEvent,
} from './live-turns';
export {
  runJsonSchema,
  runSummaryJsonSchema,
  schemaChangeJsonSchema,
  targetResultJsonSchema,
  validationErrorJsonSchema,
  type RunJson,
  type RunSummaryJson,
  type SchemaChangeJson,
  type TargetResultJson,
  type ValidationErrorJson,
} from './lab';
export {
  buildEventJsonSchema,
  buildJsonSchema,
  buildWithLogJsonSchema,
  containerJsonSchema,
  containerListJsonSchema,
  imageStatusJsonSchema,
  pinReportJsonSchema,
  rebuildAcceptedJsonSchema,
  rebuildRequestJsonSchema,
  repinRequestJsonSchema,
  type BuildEventJson,
  type BuildJson,
  type BuildWithLogJson,
  type ContainerJson,
  type ImageStatusJson,
  type PinReportJson,
  type PinStatusJson,
  type RebuildAcceptedJson,
  type RebuildRequestJson,
} from './sandbox';
export { refusalMessageOf } from './refusal-message';
export {
  DEFAULT_TOOL_RESULT_PAGE_CHARACTERS,
  MAX_TOOL_RESULT_PAGE_CHARACTERS,
  toolResultPageJsonSchema,
  type ToolResultPageJson,
} from './tool-results';
export {
  DEFAULT_USAGE_RANGE_DAYS,
  MAX_USAGE_RANGE_DAYS,
  usageBucketJsonSchema,
  usageGroupings,
  usageReportJsonSchema,
  usageTotalJsonSchema,
  type UsageBucketJson,
  type UsageGrouping,
  type UsageReportJson,
  type UsageTotalJson,
} from './usage-report';
export {
  CONSOLE_SESSION_HEADER,
  consoleSessionEndReasons,
  consoleSessionJsonSchema,
  consoleSessionStatuses,
  consoleWaysIn,
  createdConsoleSessionJsonSchema,
  endedConsoleSessionsJsonSchema,
  type ConsoleSessionJson,
  type ConsoleWayInJson,
  type CreateConsoleSessionBody,
  type CreatedConsoleSessionJson,
  type EndedConsoleSessionsJson,
} from './console-sessions';
export {
  ssoExchangeBodySchema,
  ssoProblemCodes,
  ssoSignInOptionsJsonSchema,
  type SsoExchangeBody,
  type SsoProblemCode,
  type SsoSignInOptionsJson,
} from './sso';
export { PERMISSIONS_POLICY } from './permissions-policy';
export {
  apiKeySortFields,
  auditSortFields,
  defaultApiKeySort,
  defaultAuditSort,
  defaultSessionSort,
  exportFormats,
  exportLists,
  sessionSortFields,
  sortDirections,
  type ApiKeySortField,
  type AuditSortField,
  type ExportFormat,
  type ExportList,
  type ListSort,
  type SessionSortField,
  type SortDirection,
} from './list-sorts';
export * from './qa-suites';
export {
  findTooDeep,
  MAX_NESTING_DEPTH,
  tooDeepMessage,
  tooDeepProblem,
  tooDeepWhere,
  type TooDeep,
} from './nesting-depth';
