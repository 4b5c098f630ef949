export { startProviderEmulator, type ProviderEmulator, type ProviderEmulatorOptions } from './emulator';
export type { ProviderName, RecordedRequest } from './types';
export { testIdentityAccounts, type IdentityAccount } from './identity/identity-account';
export {
  startIdentityProvider,
  type IdentityProvider,
  type IdentityProviderOptions,
} from './identity/identity-provider';
export type {
  AnswerReply,
  AnswerReplyCommon,
  ErrorReply,
  HangReply,
  JsonReply,
  RefusalReply,
  ReplyCommon,
  ReplyMatch,
  ScriptedFinishReason,
  ScriptedReply,
  ScriptedToolCall,
  StreamFault,
  TextReply,
  ToolCallsReply,
  UsageOverride,
} from './script/scripted-reply';
export { scriptedReplySchema, parseScriptedReplies } from './script/scripted-reply-schema';
export { defaultReplyText } from './reply/default-answer';
export { jsonFromSchema } from './json-from-schema';
export {
  DEFAULT_RATE_KEY,
  parseVariationSettings,
  variationKinds,
  variationSettingsSchema,
  type VariationKind,
  type VariationSettings,
} from './variation/variation-settings';
export { variationHeader } from './reply/reply-plan';
export {
  findStrictSchemaViolation,
  strictSchemaErrorMessage,
  type StrictSchemaViolation,
} from './openai/validate-strict-schema';
export { findOutputSchemaViolation } from './anthropic/validate-output-schema';
export {
  findSchemaParseViolations,
  findSchemaSemanticViolations,
  type SchemaFieldViolation,
} from './gemini/validate-response-schema';
