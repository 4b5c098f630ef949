import { isRecord, type JsonObject } from '../json';
import type { ConversationFacts, LastTurn, OfferedTool, ToolChoiceRequest } from './conversation-facts';
import { resultText, textOf } from './text-of';

/** Reads the tools, tool choice, last turn and instructions of a Chat Completions request. */
export function openAiConversation(body: JsonObject): ConversationFacts {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  return {
    tools: offeredTools(body.tools),
    toolChoice: toolChoiceOf(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls !== false,
    lastTurn: lastTurnOf(messages),
    instructions: messages
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .map((message) => textOf(message.content))
      .join('\n'),
  };
}

function offeredTools(tools: unknown): OfferedTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) =>
    isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string'
      ? [
          {
            name: tool.function.name,
            description: typeof tool.function.description === 'string' ? tool.function.description : '',
            parameters: tool.function.parameters,
          },
        ]
      : [],
  );
}

/** The name a forced `tool_choice` object names, or undefined (e.g. for a string choice). */
export function forcedFunctionName(choice: unknown): string | undefined {
  if (!isRecord(choice) || choice.type !== 'function' || !isRecord(choice.function)) return undefined;
  return typeof choice.function.name === 'string' ? choice.function.name : undefined;
}

function toolChoiceOf(choice: unknown): ToolChoiceRequest {
  if (choice === 'none') return { kind: 'none' };
  if (choice === 'required') return { kind: 'any', allowed: undefined };
  const forced = forcedFunctionName(choice);
  if (forced !== undefined) return { kind: 'tool', name: forced };
  // `{type:'allowed_tools', allowed_tools:{mode, tools}}` restricts the choice to a subset.
  if (isRecord(choice) && choice.type === 'allowed_tools' && isRecord(choice.allowed_tools)) {
    const allowed = Array.isArray(choice.allowed_tools.tools)
      ? choice.allowed_tools.tools.flatMap((tool) => {
          const name = forcedFunctionName(tool);
          return name === undefined ? [] : [name];
        })
      : [];
    return choice.allowed_tools.mode === 'required' ? { kind: 'any', allowed } : { kind: 'auto' };
  }
  return { kind: 'auto' };
}

/** Tool messages at the end answer the calls of the assistant message before them; names come from there. */
function lastTurnOf(messages: JsonObject[]): LastTurn {
  const last = messages.at(-1);
  if (last === undefined) return { kind: 'other' };
  if (last.role === 'user') return { kind: 'user', text: textOf(last.content) };
  if (last.role !== 'tool') return { kind: 'other' };
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) {
      if (isRecord(call) && typeof call.id === 'string' && isRecord(call.function))
        callNames.set(call.id, String(call.function.name));
    }
  }
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === 'tool') start -= 1;
  return {
    kind: 'tool-results',
    results: messages.slice(start).map((message) => ({
      name: typeof message.tool_call_id === 'string' ? callNames.get(message.tool_call_id) : undefined,
      content: resultText(message.content),
    })),
  };
}
