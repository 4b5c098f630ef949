import { isRecord, type JsonObject } from '../json';
import type { ConversationFacts, LastTurn, OfferedTool, ToolChoiceRequest } from './conversation-facts';
import { configField as eitherSpelling } from '../gemini/config-field';
import { resultText, textOf } from './text-of';

/** Reads the function declarations, calling config, last turn and system instruction of a generateContent request. */
export function geminiConversation(body: JsonObject): ConversationFacts {
  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  const system = eitherSpelling(body, 'systemInstruction');
  return {
    tools: functionDeclarations(body),
    toolChoice: toolChoiceOf(functionCallingConfig(body)),
    parallelToolCalls: true,
    lastTurn: lastTurnOf(contents.at(-1)),
    instructions: isRecord(system) ? textOf(system.parts) : textOf(system),
  };
}

/** Every `functionDeclarations` entry of every tool. */
export function functionDeclarations(body: JsonObject): OfferedTool[] {
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  return tools.flatMap((tool) => {
    const declarations = eitherSpelling(tool, 'functionDeclarations');
    if (!Array.isArray(declarations)) return [];
    return declarations.flatMap((declaration) =>
      isRecord(declaration) && typeof declaration.name === 'string'
        ? [
            {
              name: declaration.name,
              description: typeof declaration.description === 'string' ? declaration.description : '',
              parameters:
                eitherSpelling(declaration, 'parametersJsonSchema') ??
                eitherSpelling(declaration, 'parameters'),
            },
          ]
        : [],
    );
  });
}

/** `toolConfig.functionCallingConfig`, or undefined when the request has none. */
export function functionCallingConfig(body: JsonObject): JsonObject | undefined {
  const toolConfig = eitherSpelling(body, 'toolConfig');
  if (!isRecord(toolConfig)) return undefined;
  const config = eitherSpelling(toolConfig, 'functionCallingConfig');
  return isRecord(config) ? config : undefined;
}

/** `allowedFunctionNames` as a list of strings, or undefined when absent. */
export function allowedFunctionNames(config: JsonObject): string[] | undefined {
  const names = eitherSpelling(config, 'allowedFunctionNames');
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : undefined;
}

/** `ANY` with exactly one allowed name forces that function; `VALIDATED` behaves like `AUTO` here. */
function toolChoiceOf(config: JsonObject | undefined): ToolChoiceRequest {
  if (config === undefined) return { kind: 'auto' };
  switch (config.mode) {
    case 'NONE':
      return { kind: 'none' };
    case 'ANY': {
      const allowed = allowedFunctionNames(config);
      return allowed?.length === 1 && allowed[0] !== undefined
        ? { kind: 'tool', name: allowed[0] }
        : { kind: 'any', allowed };
    }
    default:
      return { kind: 'auto' };
  }
}

function lastTurnOf(last: JsonObject | undefined): LastTurn {
  if (last === undefined || (last.role !== undefined && last.role !== 'user')) return { kind: 'other' };
  const parts = Array.isArray(last.parts) ? last.parts.filter(isRecord) : [];
  const responses = parts.flatMap((part) => {
    const response = eitherSpelling(part, 'functionResponse');
    return isRecord(response) ? [response] : [];
  });
  if (responses.length === 0) return { kind: 'user', text: textOf(parts) };
  return {
    kind: 'tool-results',
    results: responses.map((response) => ({
      name: typeof response.name === 'string' ? response.name : undefined,
      content: resultText(response.response),
    })),
  };
}
