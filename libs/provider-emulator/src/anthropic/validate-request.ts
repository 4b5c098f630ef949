import { isRecord, type JsonObject, type ParsedBody } from '../json';
import { invalidRequest, type AnthropicRejection } from './errors';
import { checkToolChoice } from './validate-tool-choice';
import { findOutputSchemaViolation } from './validate-output-schema';

/** The API versions the emulator speaks: the classic one and the one `@anthropic-ai/sdk@1.x` sends. */
export type AnthropicVersion = '2023-06-01' | '2026-10-21';

const knownVersions: readonly string[] = ['2023-06-01', '2026-10-21'];

/** Sampling parameters API version 2026-10-21 removed; sending them is a 400 even at default values. */
const removedSamplingParameters = ['temperature', 'top_p', 'top_k'];

/** Request headers that matter for validation. */
export interface AnthropicRequestHeaders {
  version: string | undefined;
  apiKey: string | undefined;
  authorization: string | undefined;
}

/**
 * Checks a Messages request as the real API does, in its order: version header, credentials
 * (`x-api-key` or `Authorization: Bearer`), body syntax, required fields, removed parameters,
 * message roles, tool_use/tool_result pairing, and the output schema.
 */
export function validateMessagesRequest(
  headers: AnthropicRequestHeaders,
  parsed: ParsedBody,
): AnthropicRejection | undefined {
  if (headers.version === undefined) return invalidRequest('anthropic-version: header is required');
  if (!knownVersions.includes(headers.version)) {
    return invalidRequest(`anthropic-version: "${headers.version}" is not a valid version`);
  }
  const hasBearer = headers.authorization !== undefined && /^Bearer\s+\S/i.test(headers.authorization);
  if ((headers.apiKey === undefined || headers.apiKey === '') && !hasBearer) {
    return { status: 401, type: 'authentication_error', message: 'x-api-key header is required' };
  }
  if (!parsed.ok || !isRecord(parsed.value)) {
    return invalidRequest(
      'There was an error parsing the body of your request. The body must be valid JSON.',
    );
  }
  const body = parsed.value;
  for (const field of ['model', 'max_tokens', 'messages']) {
    if (body[field] === undefined) return invalidRequest(`${field}: Field required`);
  }
  if (typeof body.model !== 'string') return invalidRequest('model: Input should be a valid string');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) {
    return invalidRequest('max_tokens: Input should be a valid integer greater than or equal to 1');
  }
  if (headers.version === '2026-10-21') {
    const removed = removedSamplingParameters.find((name) => body[name] !== undefined);
    if (removed !== undefined) return invalidRequest(`${removed}: Extra inputs are not permitted`);
  }
  if (!Array.isArray(body.messages)) return invalidRequest('messages: Input should be a valid list');
  if (body.messages.length === 0) return invalidRequest('messages: at least one message is required');
  return (
    checkMessages(body.messages, headers.version as AnthropicVersion) ??
    checkToolChoice(body) ??
    checkOutputSchema(body)
  );
}

function checkMessages(messages: unknown[], version: AnthropicVersion): AnthropicRejection | undefined {
  // 2026-10-21 accepts `role: "system"` entries mid-conversation (the SDK types them as SystemMessageParam).
  const allowedRoles = version === '2026-10-21' ? ['user', 'assistant', 'system'] : ['user', 'assistant'];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return invalidRequest(`messages.${index}: Input should be a valid dictionary`);
    if (message.role === 'system' && version === '2023-06-01') {
      return invalidRequest(
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
      );
    }
    if (typeof message.role !== 'string' || !allowedRoles.includes(message.role)) {
      return invalidRequest(
        `messages.${index}.role: Input should be ${allowedRoles.map((role) => `'${role}'`).join(' or ')}`,
      );
    }
    if (message.content === undefined) return invalidRequest(`messages.${index}.content: Field required`);
  }
  return checkToolPairs(messages as JsonObject[]);
}

function contentBlocks(message: JsonObject | undefined): JsonObject[] {
  return Array.isArray(message?.content) ? message.content.filter(isRecord) : [];
}

/**
 * Every `tool_result` must answer a `tool_use` id of the immediately preceding assistant message,
 * and every `tool_use` must be answered in the next message.
 */
function checkToolPairs(messages: JsonObject[]): AnthropicRejection | undefined {
  for (const [index, message] of messages.entries()) {
    const previous = index > 0 ? messages[index - 1] : undefined;
    const offered = new Set(
      previous?.role === 'assistant'
        ? contentBlocks(previous).flatMap((block) =>
            block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [],
          )
        : [],
    );
    const blocks = contentBlocks(message);
    for (const [blockIndex, block] of blocks.entries()) {
      if (block.type !== 'tool_result') continue;
      const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
      if (!offered.has(id)) {
        return invalidRequest(
          `messages.${index}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
    if (message.role === 'assistant' && index < messages.length - 1) {
      const answered = new Set(
        contentBlocks(messages[index + 1]).flatMap((block) =>
          block.type === 'tool_result' && typeof block.tool_use_id === 'string' ? [block.tool_use_id] : [],
        ),
      );
      const unanswered = contentBlocks(message)
        .filter(
          (block) => block.type === 'tool_use' && typeof block.id === 'string' && !answered.has(block.id),
        )
        .map((block) => String(block.id));
      if (unanswered.length > 0) {
        return invalidRequest(
          `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  }
  return undefined;
}

/** The output schema a request carries: GA `output_config.format` or the legacy beta `output_format`. */
export function outputSchemaOf(body: JsonObject): { field: string; schema: unknown } | undefined {
  const config = body.output_config;
  if (isRecord(config) && isRecord(config.format) && config.format.type === 'json_schema') {
    return { field: 'output_config.format.schema', schema: config.format.schema };
  }
  const legacy = body.output_format;
  if (isRecord(legacy) && legacy.type === 'json_schema')
    return { field: 'output_format.schema', schema: legacy.schema };
  return undefined;
}

function checkOutputSchema(body: JsonObject): AnthropicRejection | undefined {
  const output = outputSchemaOf(body);
  if (output === undefined) return undefined;
  const violation = findOutputSchemaViolation(output.schema);
  return violation === undefined ? undefined : invalidRequest(`${output.field}: ${violation}`);
}
