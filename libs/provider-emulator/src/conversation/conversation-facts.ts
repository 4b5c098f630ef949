/** A function the request offers the model, in provider-neutral form. */
export interface OfferedTool {
  name: string;
  description: string;
  /** The parameter schema as sent (JSON Schema, or Gemini's OpenAPI subset); undefined when none. */
  parameters: unknown;
}

/**
 * What the request allows or demands of tool use, whatever the provider's spelling:
 * OpenAI `tool_choice`, Anthropic `tool_choice.type`, Gemini `functionCallingConfig.mode`.
 */
export type ToolChoiceRequest =
  /** The model decides (the default of every provider when tools are offered). */
  | { kind: 'auto' }
  /** No tool call (OpenAI `none`, Anthropic `none`, Gemini `NONE`). */
  | { kind: 'none' }
  /** Some tool must be called, optionally only one of `allowed` (OpenAI `required`, Anthropic `any`, Gemini `ANY`). */
  | { kind: 'any'; allowed: readonly string[] | undefined }
  /** This tool must be called (OpenAI `{type:'function'}`, Anthropic `{type:'tool'}`, Gemini `ANY` with one allowed name). */
  | { kind: 'tool'; name: string };

/** One tool result the conversation ends with. */
export interface ToolResultFact {
  /** The tool's name when the request lets it be found (Gemini names it; OpenAI and Anthropic via the call id). */
  name: string | undefined;
  /** The result as text (JSON results serialized). */
  content: string;
}

/** How the conversation ends: with something the user said, or with tool results for the model. */
export type LastTurn =
  | { kind: 'user'; text: string }
  | { kind: 'tool-results'; results: ToolResultFact[] }
  /** The last message is the model's own (e.g. a prefill) or carries no text. */
  | { kind: 'other' };

/** The parts of a conversation that the emulator's default model behaviour looks at. */
export interface ConversationFacts {
  tools: OfferedTool[];
  toolChoice: ToolChoiceRequest;
  /** False when the request asks for one call at most (OpenAI `parallel_tool_calls: false`, Anthropic `disable_parallel_tool_use`). */
  parallelToolCalls: boolean;
  lastTurn: LastTurn;
  /** System / developer instructions joined, for the JSON-instruction rule. */
  instructions: string;
}

/** Facts of a request without tools or instructions (e.g. unit tests of the reply planner). */
export const plainConversation: ConversationFacts = {
  tools: [],
  toolChoice: { kind: 'auto' },
  parallelToolCalls: true,
  lastTurn: { kind: 'other' },
  instructions: '',
};
