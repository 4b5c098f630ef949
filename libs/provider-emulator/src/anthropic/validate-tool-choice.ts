import { isRecord, type JsonObject } from '../json';
import { invalidRequest, type AnthropicRejection } from './errors';

const choiceTypes = ['auto', 'any', 'tool', 'none'];

/** `tool_choice` as the API checks it: a known type, only with `tools`, and `tool` naming one of them. */
export function checkToolChoice(body: JsonObject): AnthropicRejection | undefined {
  const choice = body.tool_choice;
  if (choice === undefined) return undefined;
  if (!isRecord(choice)) return invalidRequest('tool_choice: Input should be a valid dictionary');
  if (typeof choice.type !== 'string' || !choiceTypes.includes(choice.type)) {
    return invalidRequest(
      `tool_choice: Input tag '${String(choice.type)}' found using 'type' does not match any of the expected tags: ${choiceTypes.map((type) => `'${type}'`).join(', ')}`,
    );
  }
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  if (tools.length === 0) return invalidRequest('tool_choice may only be specified while providing tools.');
  if (choice.type !== 'tool') return undefined;
  if (typeof choice.name !== 'string') return invalidRequest('tool_choice.tool.name: Field required');
  return tools.some((tool) => tool.name === choice.name)
    ? undefined
    : invalidRequest(`tool_choice: Tool '${choice.name}' not found in provided tools`);
}
