import type { ConversationFacts, OfferedTool, ToolResultFact } from '../conversation/conversation-facts';
import { toolsMentioned } from '../conversation/tool-mentions';
import { jsonFromSchema } from '../json-from-schema';
import { isRecord } from '../json';
import type { AnswerReply, ScriptedToolCall } from '../script/scripted-reply';
import type { JsonRequest } from './request-facts';

/** The text every plain, unscripted request gets; short so load runs measure the emulator, not payloads. */
export const defaultReplyText = 'Hello from the provider emulator.';

/** Longest piece of one tool result quoted back in the answer. */
const quotedResultCharacters = 200;

/**
 * An instruction to answer in JSON, e.g. "Respond with a single valid JSON object." or "Answer in
 * JSON": one of these verbs, then "JSON" within the same sentence.
 */
const jsonInstruction = /\b(?:respond|reply|answer|return|output|format|write|give)\b[^.!?\n]{0,60}\bjson\b/i;

/**
 * What the emulator answers when no scripted reply matches: a small, deterministic stand-in for a
 * model that does what it is asked (the same request always gets the same content):
 *
 * 1. Tool calls when the tool choice demands one (a named tool, or any tool: the ones the last user
 *    message mentions, else the first allowed), or, under `auto`, when the last user message
 *    mentions tools (see {@link toolsMentioned}). Arguments conform to the tool's parameter schema
 *    (with the user's `quoted code` in the first required free-text parameter).
 * 2. JSON when the request asks for it natively (conforming to its schema, else a small object) or
 *    by instruction in the system prompt or the last user message (a small object).
 * 3. Text that quotes the tool results, when the conversation ends with them.
 * 4. {@link defaultReplyText}.
 */
export function defaultAnswer(json: JsonRequest, conversation: ConversationFacts): AnswerReply {
  const toolCalls = defaultToolCalls(conversation);
  if (toolCalls.length > 0) return { kind: 'tool-calls', toolCalls };
  if (json.kind !== 'none' || asksForJson(conversation)) return { kind: 'json' };
  if (conversation.lastTurn.kind === 'tool-results')
    return { kind: 'text', text: describeToolResults(conversation.lastTurn.results) };
  return { kind: 'text', text: defaultReplyText };
}

function defaultToolCalls(conversation: ConversationFacts): ScriptedToolCall[] {
  const { tools, toolChoice, lastTurn } = conversation;
  const userText = lastTurn.kind === 'user' ? lastTurn.text : '';
  let chosen: OfferedTool[];
  switch (toolChoice.kind) {
    case 'none':
      return [];
    case 'tool':
      chosen = tools.filter((tool) => tool.name === toolChoice.name).slice(0, 1);
      break;
    case 'any': {
      const allowed = toolChoice.allowed;
      const candidates = allowed === undefined ? tools : tools.filter((tool) => allowed.includes(tool.name));
      const mentioned = toolsMentioned(userText, candidates);
      chosen = mentioned.length > 0 ? mentioned : candidates.slice(0, 1);
      break;
    }
    case 'auto':
      // Only a user's request starts a call: after tool results the model answers.
      chosen = lastTurn.kind === 'user' ? toolsMentioned(userText, tools) : [];
      break;
  }
  if (!conversation.parallelToolCalls) chosen = chosen.slice(0, 1);
  return chosen.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool, userText) }));
}

/** Text the user quoted as code (`…`): what a model would pass as a command, a path or a query. */
const codeSpan = /`([^`\n]+)`/;

/**
 * An instance of the tool's parameter schema; tools without parameters get `{}`. When the user
 * quoted something as code, the first required free-text parameter gets it ("run `ls -la`" runs
 * `ls -la`), so the offline demo does what was asked; everything else is the schema's example.
 */
function argumentsFor(tool: OfferedTool, userText: string): Record<string, unknown> {
  if (tool.parameters === undefined) return {};
  const value = jsonFromSchema(tool.parameters);
  if (!isRecord(value)) return {};
  const quoted = codeSpan.exec(userText)?.[1];
  const slot = quoted === undefined ? undefined : freeTextParameter(tool.parameters, quoted);
  return slot === undefined ? value : { ...value, [slot]: quoted };
}

/** The first required parameter that is a plain string the quoted text satisfies. */
function freeTextParameter(parameters: unknown, text: string): string | undefined {
  if (!isRecord(parameters) || !isRecord(parameters['properties'])) return undefined;
  const properties = parameters['properties'];
  const required = Array.isArray(parameters['required']) ? parameters['required'] : [];
  for (const name of required) {
    if (typeof name !== 'string') continue;
    const property = properties[name];
    if (!isRecord(property) || property['type'] !== 'string') continue;
    if (['enum', 'const', 'pattern', 'format'].some((keyword) => keyword in property)) continue;
    const { minLength, maxLength } = property;
    if (typeof minLength === 'number' && text.length < minLength) continue;
    if (typeof maxLength === 'number' && text.length > maxLength) continue;
    return name;
  }
  return undefined;
}

function asksForJson(conversation: ConversationFacts): boolean {
  const lastTurn = conversation.lastTurn;
  return (
    jsonInstruction.test(conversation.instructions) ||
    (lastTurn.kind === 'user' && jsonInstruction.test(lastTurn.text))
  );
}

function describeToolResults(results: readonly ToolResultFact[]): string {
  const quoted = results.map((result) => {
    const content =
      result.content.length > quotedResultCharacters
        ? `${result.content.slice(0, quotedResultCharacters)}…`
        : result.content;
    return `${result.name ?? 'the tool'} returned ${content}`;
  });
  return `Here is what the tool result says: ${quoted.join('; ')}`;
}
