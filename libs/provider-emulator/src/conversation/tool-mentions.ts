import type { OfferedTool } from './conversation-facts';

/** Lower-case words of a text or identifier: `getWeather`, `get_weather` and `get weather` give `get`, `weather`. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * The tools a user message asks for, in the order they were offered. The rule, deliberately
 * conservative so that ordinary conversations get text: a tool is asked for when EVERY word of its
 * name appears as a whole word in the message, in any order and case. So "get the weather in
 * Paris" asks for `get_weather`, "read the tool result" for `read_tool_result`, and "Hello!" or
 * "what is the weather?" ask for neither. Descriptions are not consulted: their common words would
 * make the emulator call tools in conversations that never asked for them.
 */
export function toolsMentioned(text: string, tools: readonly OfferedTool[]): OfferedTool[] {
  const words = new Set(wordsOf(text));
  return tools.filter((tool) => {
    const nameWords = wordsOf(tool.name);
    return nameWords.length > 0 && nameWords.every((word) => words.has(word));
  });
}
