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
  messageErrorJsonSchema,
  textPartJsonSchema,
  toolCallJsonSchema,
  truncatedItemJsonSchema,
  type CompressionEventJson,
  type MessageErrorJson,
  type TextPartJson,
  type ToolCallJson,
  type TruncatedItemJson,
} from './transcript-parts';
export { tokenUsageJsonSchema, type TokenUsageJson } from './usage';
export { userJsonSchema, type UserJson } from './users';
export {
  DEFAULT_TOOL_RESULT_PAGE_CHARACTERS,
  MAX_TOOL_RESULT_PAGE_CHARACTERS,
  toolResultPageJsonSchema,
  type ToolResultPageJson,
} from './tool-results';
