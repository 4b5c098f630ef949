import { isRecord, type JsonObject } from '../json';
import type { ConversationFacts, LastTurn, OfferedTool, ToolChoiceRequest } from './conversation-facts';
import { resultText, textOf } from './text-of';

/** Reads the tools, tool choice, last turn and instructions of a Messages request. */
export function anthropicConversation(body: JsonObject): ConversationFacts {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const choice = isRecord(body.tool_choice) ? body.tool_choice : {};
  // 2026-10-21 also accepts `role: "system"` messages mid-conversation.
  const systemMessages = messages.filter((message) => message.role === 'system');
  return {
    tools: offeredTools(body.tools),
    toolChoice: toolChoiceOf(choice),
    parallelToolCalls: choice.disable_parallel_tool_use !== true,
    lastTurn: lastTurnOf(messages.filter((message) => message.role !== 'system')),
    instructions: [textOf(body.system), ...systemMessages.map((message) => textOf(message.content))].join(
      '\n',
    ),
  };
}

/** Client tools (with an `input_schema`); server tools such as web search are the API's to run. */
function offeredTools(tools: unknown): OfferedTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) =>
    isRecord(tool) && typeof tool.name === 'string' && isRecord(tool.input_schema)
      ? [
          {
            name: tool.name,
            description: typeof tool.description === 'string' ? tool.description : '',
            parameters: tool.input_schema,
          },
        ]
      : [],
  );
}

function toolChoiceOf(choice: JsonObject): ToolChoiceRequest {
  switch (choice.type) {
    case 'none':
      return { kind: 'none' };
    case 'any':
      return { kind: 'any', allowed: undefined };
    case 'tool':
      return typeof choice.name === 'string' ? { kind: 'tool', name: choice.name } : { kind: 'auto' };
    default:
      return { kind: 'auto' };
  }
}

function blocksOf(message: JsonObject | undefined): JsonObject[] {
  return Array.isArray(message?.content) ? message.content.filter(isRecord) : [];
}

/** `tool_result` blocks answer the `tool_use` ids of the assistant message right before them. */
function lastTurnOf(messages: JsonObject[]): LastTurn {
  const last = messages.at(-1);
  if (last?.role !== 'user') return { kind: 'other' };
  const results = blocksOf(last).filter((block) => block.type === 'tool_result');
  if (results.length === 0) return { kind: 'user', text: textOf(last.content) };
  const callNames = new Map<string, string>();
  for (const block of blocksOf(messages.at(-2))) {
    if (block.type === 'tool_use' && typeof block.id === 'string')
      callNames.set(block.id, String(block.name));
  }
  return {
    kind: 'tool-results',
    results: results.map((block) => ({
      name: typeof block.tool_use_id === 'string' ? callNames.get(block.tool_use_id) : undefined,
      content: resultText(block.content ?? ''),
    })),
  };
}
