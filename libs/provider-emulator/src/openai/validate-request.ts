import { isRecord, type JsonObject, type ParsedBody } from '../json';
import { invalidRequest, type OpenAiRejection } from './errors';
import { checkToolChoice } from './validate-tool-choice';
import { findStrictSchemaViolation, strictSchemaErrorMessage } from './validate-strict-schema';

const validRoles = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];

const missingKeyMessage =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth " +
  "(i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API " +
  'from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.';

const invalidJsonMessage =
  "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library " +
  'correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble ' +
  'figuring out how to fix this, please contact us through our help center at help.openai.com.)';

const schemaNamePattern = /^[a-zA-Z0-9_-]+$/;

/**
 * Checks a Chat Completions request the way the real API does and returns the rejection it would
 * send, or undefined when the request is acceptable. Checks run in the API's order: credentials,
 * body syntax, required fields, messages, then response format and tool schemas.
 */
export function validateChatCompletionRequest(
  authorization: string | undefined,
  parsed: ParsedBody,
): OpenAiRejection | undefined {
  if (authorization === undefined || !/^Bearer\s+\S/i.test(authorization)) {
    return {
      status: 401,
      message: missingKeyMessage,
      type: 'invalid_request_error',
      param: null,
      code: null,
    };
  }
  if (!parsed.ok || !isRecord(parsed.value)) return invalidRequest(invalidJsonMessage);
  const body = parsed.value;
  if (typeof body.model !== 'string' || body.model === '')
    return invalidRequest('you must provide a model parameter');
  if (body.messages === undefined) {
    return invalidRequest(
      "Missing required parameter: 'messages'.",
      'messages',
      'missing_required_parameter',
    );
  }
  if (!Array.isArray(body.messages)) {
    return invalidRequest(
      `Invalid type for 'messages': expected an array of objects, but got ${typeName(body.messages)} instead.`,
      'messages',
      'invalid_type',
    );
  }
  if (body.messages.length === 0) {
    return invalidRequest(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  }
  return (
    checkMessages(body.messages) ??
    checkStreamOptions(body) ??
    checkResponseFormat(body.response_format, body.messages) ??
    checkTools(body.tools) ??
    checkToolChoice(body)
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkMessages(messages: unknown[]): OpenAiRejection | undefined {
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) {
      return invalidRequest(
        `Invalid type for 'messages[${index}]': expected an object, but got ${typeName(message)} instead.`,
        `messages[${index}]`,
        'invalid_type',
      );
    }
    if (typeof message.role !== 'string' || !validRoles.includes(message.role)) {
      return invalidRequest(
        `Invalid value: '${String(message.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${index}].role`,
        'invalid_value',
      );
    }
  }
  return checkToolMessageOrder(messages as JsonObject[]);
}

/**
 * A `tool` message must answer a `tool_calls` id of the assistant message right before its run of
 * tool messages, and every such id must be answered before the conversation moves on.
 */
function checkToolMessageOrder(messages: JsonObject[]): OpenAiRejection | undefined {
  let openCalls: Set<string> | undefined;
  let openCallsIndex = -1;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (openCalls === undefined) {
        return invalidRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      const id = message.tool_call_id;
      if (typeof id !== 'string' || !openCalls.has(id)) {
        return invalidRequest(
          `Invalid parameter: 'tool_call_id' of '${String(id)}' not found in 'tool_calls' of previous message.`,
          `messages.[${index}].tool_call_id`,
        );
      }
      openCalls.delete(id);
      continue;
    }
    const unanswered = unansweredCalls(openCalls, openCallsIndex);
    if (unanswered !== undefined) return unanswered;
    openCalls = undefined;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      openCalls = new Set(
        message.tool_calls.flatMap((call) =>
          isRecord(call) && typeof call.id === 'string' ? [call.id] : [],
        ),
      );
      openCallsIndex = index;
    }
  }
  return unansweredCalls(openCalls, openCallsIndex);
}

function unansweredCalls(openCalls: Set<string> | undefined, index: number): OpenAiRejection | undefined {
  if (openCalls === undefined || openCalls.size === 0) return undefined;
  return invalidRequest(
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...openCalls].join(', ')}`,
    `messages.[${index}].role`,
  );
}

function checkStreamOptions(body: JsonObject): OpenAiRejection | undefined {
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) {
    return invalidRequest(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
    );
  }
  return undefined;
}

function mentionsJson(messages: unknown[]): boolean {
  return messages.some((message) => {
    if (!isRecord(message)) return false;
    const content = message.content;
    if (typeof content === 'string') return /json/i.test(content);
    return (
      Array.isArray(content) &&
      content.some((part) => isRecord(part) && typeof part.text === 'string' && /json/i.test(part.text))
    );
  });
}

function checkResponseFormat(format: unknown, messages: unknown[]): OpenAiRejection | undefined {
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format) || typeof format.type !== 'string') {
    return invalidRequest(
      "Missing required parameter: 'response_format.type'.",
      'response_format.type',
      'missing_required_parameter',
    );
  }
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return mentionsJson(messages)
        ? undefined
        : invalidRequest(
            "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
            'messages',
          );
    case 'json_schema':
      return checkJsonSchemaFormat(format.json_schema);
    default:
      return invalidRequest(
        `Invalid value: '${format.type}'. Supported values are: 'json_object', 'json_schema', and 'text'.`,
        'response_format.type',
        'invalid_value',
      );
  }
}

function checkJsonSchemaFormat(jsonSchema: unknown): OpenAiRejection | undefined {
  if (!isRecord(jsonSchema)) {
    return invalidRequest(
      "Missing required parameter: 'response_format.json_schema'.",
      'response_format.json_schema',
      'missing_required_parameter',
    );
  }
  const name = jsonSchema.name;
  if (typeof name !== 'string') {
    return invalidRequest(
      "Missing required parameter: 'response_format.json_schema.name'.",
      'response_format.json_schema.name',
      'missing_required_parameter',
    );
  }
  if (name.length > 64) {
    return invalidRequest(
      `Invalid 'response_format.json_schema.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`,
      'response_format.json_schema.name',
      'string_above_max_length',
    );
  }
  if (!schemaNamePattern.test(name)) {
    return invalidRequest(
      "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      'response_format.json_schema.name',
      'invalid_value',
    );
  }
  if (jsonSchema.strict !== true) return undefined;
  const violation = findStrictSchemaViolation(jsonSchema.schema);
  if (violation === undefined) return undefined;
  return invalidRequest(
    strictSchemaErrorMessage(`response_format '${name}'`, violation),
    'response_format',
    'invalid_json_schema',
  );
}

function checkTools(tools: unknown): OpenAiRejection | undefined {
  if (!Array.isArray(tools)) return undefined;
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool) || !isRecord(tool.function) || tool.function.strict !== true) continue;
    const violation = findStrictSchemaViolation(tool.function.parameters);
    if (violation === undefined) continue;
    const name = typeof tool.function.name === 'string' ? tool.function.name : '';
    return invalidRequest(
      strictSchemaErrorMessage(`function '${name}'`, violation),
      `tools[${index}].function.parameters`,
      'invalid_function_parameters',
    );
  }
  return undefined;
}
