import { forcedFunctionName } from '../conversation/openai-conversation';
import { isRecord, type JsonObject } from '../json';
import { invalidRequest, type OpenAiRejection } from './errors';

const choiceModes = ['none', 'auto', 'required'];

/**
 * `tool_choice` as the API checks it: a known mode or a function object, only together with
 * `tools`, and a forced function must be one of them (the emulator could not call it otherwise).
 */
export function checkToolChoice(body: JsonObject): OpenAiRejection | undefined {
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string' && !choiceModes.includes(choice)) {
    return invalidRequest(
      `Invalid value: '${choice}'. Supported values are: 'none', 'auto', and 'required'.`,
      'tool_choice',
      'invalid_value',
    );
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (tools.length === 0) {
    return invalidRequest(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      'tool_choice',
    );
  }
  if (typeof choice === 'string' || (isRecord(choice) && choice.type === 'allowed_tools')) return undefined;
  const forced = forcedFunctionName(choice);
  if (forced === undefined) {
    return invalidRequest(
      "Missing required parameter: 'tool_choice.function.name'.",
      'tool_choice.function.name',
      'missing_required_parameter',
    );
  }
  const offered = tools.some(
    (tool) => isRecord(tool) && isRecord(tool.function) && tool.function.name === forced,
  );
  return offered
    ? undefined
    : invalidRequest(
        `Invalid value for 'tool_choice': function '${forced}' was not found in 'tools'.`,
        'tool_choice',
        'invalid_value',
      );
}
