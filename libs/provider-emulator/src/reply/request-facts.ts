import type { ConversationFacts } from '../conversation/conversation-facts';
import type { VariationRequest } from '../variation/structured-variation';

/** What the request asked for in the way of JSON output, as found by the provider's handler. */
export type JsonRequest =
  | { kind: 'none' }
  /** JSON mode without a schema (OpenAI `json_object`, Gemini `application/json` alone). */
  | { kind: 'object' }
  | { kind: 'schema'; schema: unknown }
  /** Gemini `text/x.enum`: the answer is one enum value as plain text. */
  | { kind: 'enum-text'; schema: unknown };

/** Facts about the request that shape a generated answer. */
export interface RequestFacts {
  json: JsonRequest;
  /** Tools, tool choice and how the conversation ends: what the default answer responds to. */
  conversation: ConversationFacts;
  /** Size of the request body, the basis of the input-token estimate. */
  requestCharacters: number;
  /** Set when seeded variation is on: default structured-output answers may then be invalid. */
  variation?: VariationRequest;
}
