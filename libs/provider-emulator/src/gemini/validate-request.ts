import { isRecord, type JsonObject, type ParsedBody } from '../json';
import { invalidArgument, type GeminiRejection } from './errors';
import { configField } from './config-field';
import { checkToolConfig } from './validate-tool-config';
import { findSchemaParseViolations, findSchemaSemanticViolations } from './validate-response-schema';

const unregisteredCallerMessage =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API key or other form of API consumer identity to call this API.";

const schemaMimeTypes = ['application/json', 'text/x.enum'];

/** The generation config, accepting both the JSON (camelCase) and proto (snake_case) spelling. */
export function generationConfigOf(body: JsonObject): JsonObject {
  const config = body.generationConfig ?? body.generation_config;
  return isRecord(config) ? config : {};
}

export { configField };

/**
 * Checks a generateContent request like the API: credentials (`x-goog-api-key` or `?key=`), then
 * decoding of `responseSchema` (unknown fields are errors), contents, roles, function-call
 * pairing, and the response MIME type / schema combination.
 */
export function validateGenerateContentRequest(
  apiKey: string | undefined,
  parsed: ParsedBody,
): GeminiRejection | undefined {
  if (apiKey === undefined || apiKey === '')
    return { code: 403, status: 'PERMISSION_DENIED', message: unregisteredCallerMessage };
  if (!parsed.ok || !isRecord(parsed.value)) {
    return invalidArgument(
      `Invalid JSON payload received. Unexpected token.\n${parsed.ok ? '' : parsed.text.slice(0, 40)}`,
    );
  }
  const body = parsed.value;
  const config = generationConfigOf(body);
  return (
    checkSchemaDecoding(config) ??
    checkContents(body.contents) ??
    checkToolConfig(body) ??
    checkSchemaSettings(config)
  );
}

function checkSchemaDecoding(config: JsonObject): GeminiRejection | undefined {
  const schema = configField(config, 'responseSchema');
  if (schema === undefined) return undefined;
  const violations = findSchemaParseViolations(schema);
  if (violations.length === 0) return undefined;
  return invalidArgument(violations.map((violation) => violation.description).join('\n'), [
    {
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: violations.map((violation) => ({
        field: violation.field,
        description: violation.description,
      })),
    },
  ]);
}

function checkContents(contents: unknown): GeminiRejection | undefined {
  if (!Array.isArray(contents) || contents.length === 0) {
    return invalidArgument('* GenerateContentRequest.contents: contents is not specified\n');
  }
  for (const content of contents) {
    if (!isRecord(content))
      return invalidArgument('* GenerateContentRequest.contents: contents is not specified\n');
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model') {
      return invalidArgument('Please use a valid role: user, model.');
    }
  }
  return checkFunctionTurns(contents as JsonObject[]);
}

function partsOf(content: JsonObject | undefined): JsonObject[] {
  return Array.isArray(content?.parts) ? content.parts.filter(isRecord) : [];
}

/**
 * A turn with `functionResponse` parts must come right after a model turn with `functionCall`
 * parts, answer as many calls as were made, and name only functions that were called.
 */
function checkFunctionTurns(contents: JsonObject[]): GeminiRejection | undefined {
  for (const [index, content] of contents.entries()) {
    const responses = partsOf(content).flatMap((part) =>
      isRecord(part.functionResponse) ? [part.functionResponse] : [],
    );
    if (responses.length === 0) continue;
    const previous = index > 0 ? contents[index - 1] : undefined;
    const calls =
      previous?.role === 'model'
        ? partsOf(previous).flatMap((part) => (isRecord(part.functionCall) ? [part.functionCall] : []))
        : [];
    if (calls.length === 0) {
      return invalidArgument(
        'Please ensure that function response turn comes immediately after a function call turn.',
      );
    }
    if (calls.length !== responses.length) {
      return invalidArgument(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
    }
    const calledNames = new Set(calls.map((call) => call.name));
    const unmatched = responses.findIndex((response) => !calledNames.has(response.name));
    if (unmatched !== -1) {
      return invalidArgument(
        `* GenerateContentRequest.contents[${index}].parts[${unmatched}].function_response.name: function response name ${JSON.stringify(responses[unmatched]?.name)} does not match any function call name in the preceding model turn.\n`,
      );
    }
  }
  return undefined;
}

function checkSchemaSettings(config: JsonObject): GeminiRejection | undefined {
  const schema = configField(config, 'responseSchema');
  const jsonSchema = configField(config, 'responseJsonSchema');
  if (schema === undefined && jsonSchema === undefined) return undefined;
  if (schema !== undefined && jsonSchema !== undefined) {
    return invalidArgument(
      '* GenerateContentRequest.generation_config.response_json_schema: response_json_schema and response_schema cannot both be set.\n',
    );
  }
  const mimeType = configField(config, 'responseMimeType');
  if (typeof mimeType !== 'string' || !schemaMimeTypes.includes(mimeType)) {
    const field = schema !== undefined ? 'response_schema' : 'response_json_schema';
    return invalidArgument(
      `* GenerateContentRequest.generation_config.response_mime_type: ${field} is only supported with response_mime_type ${schemaMimeTypes.join(' or ')}; got ${JSON.stringify(mimeType ?? 'text/plain')}.\n`,
    );
  }
  if (schema === undefined) return undefined;
  const problems = findSchemaSemanticViolations(schema);
  return problems.length === 0 ? undefined : invalidArgument(`${problems.join('\n')}\n`);
}
