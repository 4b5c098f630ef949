import type { ChatCompletionResult } from '@agentdesk/providers';
import { InvalidModelOutputError } from '../model-access/invalid-model-output-error';
import type { ChatCompletionRequest } from './chat-completion-request';

/** The JSON `response_format` a request asked for, or undefined for text. */
export type RequestedJson = 'json_object' | 'json_schema' | undefined;

export function requestedJsonOf(request: Pick<ChatCompletionRequest, 'response_format'>): RequestedJson {
  const type = request.response_format?.type;
  return type === 'json_object' || type === 'json_schema' ? type : undefined;
}

/** Longest piece of the model's answer quoted in the error, enough to see what went wrong. */
const quotedAnswerCharacters = 120;

// Defined with the failure vocabulary (model-access); re-exported for this feature's files.
export { InvalidModelOutputError };

/** The error for an answer that is not the JSON asked for, quoting its start. */
function invalidModelOutput(
  requested: NonNullable<RequestedJson>,
  modelName: string,
  reason: string,
  text: string,
): InvalidModelOutputError {
  const answer = text.length > quotedAnswerCharacters ? `${text.slice(0, quotedAnswerCharacters)}…` : text;
  return new InvalidModelOutputError(
    `${modelName} did not answer with the ${requested === 'json_object' ? 'JSON object' : 'JSON'} that response_format ${requested} asks for (${reason}); the answer was not passed on. It began: ${JSON.stringify(answer)}`,
  );
}

/** A streamed answer whose first characters already show it is not the JSON asked for. */
export function invalidJsonStart(
  requested: NonNullable<RequestedJson>,
  modelName: string,
  text: string,
): InvalidModelOutputError {
  const expected = requested === 'json_object' ? 'a JSON object' : 'JSON the schema allows';
  return invalidModelOutput(requested, modelName, `the answer does not start like ${expected}`, text);
}

/**
 * Throws {@link InvalidModelOutputError} when a JSON format was requested and the finished answer is
 * not JSON (for `json_object`: not a JSON object). Answers that say why they are not JSON pass:
 * refusals, tool calls, and cut-off answers (`length`, `content_filter`), whose finish reason tells
 * the client the content is incomplete — as OpenAI itself sends them.
 */
export function assertJsonAnswer(result: ChatCompletionResult, requested: RequestedJson): void {
  if (requested === undefined || result.toolCalls.length > 0) return;
  if (result.finishReason !== 'stop' && result.finishReason !== 'other') return;
  const isObject = typeof result.json === 'object' && result.json !== null && !Array.isArray(result.json);
  if (result.json !== undefined && (requested === 'json_schema' || isObject)) return;
  const reason =
    result.json === undefined
      ? (result.validation?.errors[0]?.message ?? 'the answer is not valid JSON')
      : 'the answer is JSON but not a JSON object';
  throw invalidModelOutput(requested, `${result.provider} model ${result.model}`, reason, result.text);
}

/**
 * The answer's `message.content`. With a JSON response format it is the post-processed JSON — for
 * OpenAI strict schemas the restored value (the `null`s strict mode forced for optional properties
 * removed, a wrapped root unwrapped) — serialized, because that is what validates against the
 * caller's own schema. Text that did not parse as JSON is returned as the model wrote it.
 */
export function answerContent(result: Pick<ChatCompletionResult, 'text' | 'json'>): string {
  return result.json === undefined ? result.text : JSON.stringify(result.json);
}
