/** Plain text content. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image, inline as base64 or by URL. Providers that cannot take a URL get a warning. */
export type ImagePart =
  { type: 'image'; mediaType: string; data: string } | { type: 'image'; url: string; mediaType?: string };

export type UserContentPart = TextPart | ImagePart;

/**
 * A tool call the model asked for. `arguments` is the JSON text of the arguments, as OpenAI sends it;
 * converters parse it for Anthropic and Gemini, which take objects.
 */
export interface ToolCall {
  /** Stable id. Gemini sends none, so one is synthesized (`call_<n>_<name>`). */
  id: string;
  name: string;
  arguments: string;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string | UserContentPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | TextPart[];
  toolCalls?: ToolCall[];
}

/** The result of one tool call. `toolName` is required because Gemini matches results by name. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: string | TextPart[];
  isError?: boolean;
}

/** The provider-neutral message AgentDesk stores and converts to each provider's format. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
