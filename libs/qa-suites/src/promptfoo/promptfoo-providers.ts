import type { SuiteTarget } from '@agentdesk/api-contract';
import { isRecord, type UnsupportedParts } from './unsupported-parts';

/** promptfoo provider prefixes AgentDesk routes, and the call-type segments that may follow them. */
const ROUTED_PREFIXES = new Set(['openai', 'anthropic', 'google', 'vertex', 'gemini']);
const CALL_TYPES = new Set(['chat', 'messages', 'completion', 'responses']);

const TEMPERATURE_KEYS = ['temperature'];
const MAX_TOKENS_KEYS = [
  'max_tokens',
  'maxTokens',
  'max_output_tokens',
  'maxOutputTokens',
  'max_completion_tokens',
];

/** The model of a promptfoo provider id ("openai:chat:gpt-4o" → "gpt-4o"), or why it cannot be one. */
function modelOf(id: string): { model: string } | { reason: string } {
  if (id.startsWith('file://') || id.startsWith('exec:') || id.startsWith('python:') || /^https?:/.test(id)) {
    return { reason: 'a provider that is a file, script or URL: AgentDesk calls its own models' };
  }
  const segments = id.split(':');
  if (segments.length === 1) return { model: id };
  const [prefix, ...rest] = segments;
  if (!ROUTED_PREFIXES.has(prefix!))
    return {
      reason: `"${prefix}" providers are not routed by AgentDesk (OpenAI, Anthropic and Gemini models are)`,
    };
  const modelSegments = rest.length > 1 && CALL_TYPES.has(rest[0]!) ? rest.slice(1) : rest;
  const model = modelSegments.join(':');
  return model === '' ? { reason: 'no model named' } : { model };
}

/** A JSON Schema a provider's `response_format` asks for (OpenAI style), to use for cases with none. */
function responseFormatSchema(config: Record<string, unknown>): Record<string, unknown> | undefined {
  const format = config['response_format'];
  if (!isRecord(format) || format['type'] !== 'json_schema' || !isRecord(format['json_schema']))
    return undefined;
  const schema = format['json_schema']['schema'];
  return isRecord(schema) ? schema : undefined;
}

function firstNumber(config: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const key of keys) if (typeof config[key] === 'number') return config[key];
  return undefined;
}

export interface ImportedProviders {
  targets: SuiteTarget[];
  /** The schema a provider's response_format named, if any. */
  schema: Record<string, unknown> | undefined;
}

/** promptfoo `providers` → suite targets: model from the id, label, temperature and max tokens from `config`. */
export function importProviders(providers: unknown, unsupported: UnsupportedParts): ImportedProviders {
  const list = typeof providers === 'string' ? [providers] : Array.isArray(providers) ? providers : [];
  if (providers !== undefined && !Array.isArray(providers) && typeof providers !== 'string') {
    unsupported.add('providers', 'providers given as a map or a function: list them');
  }
  const targets: SuiteTarget[] = [];
  let schema: Record<string, unknown> | undefined;
  list.forEach((entry, index) => {
    const path = `providers[${index}]`;
    const provider = typeof entry === 'string' ? { id: entry } : isRecord(entry) ? entry : undefined;
    if (!provider || typeof provider['id'] !== 'string') {
      unsupported.add(path, 'a provider without a string "id"');
      return;
    }
    const model = modelOf(provider['id']);
    if ('reason' in model) {
      unsupported.add(path, model.reason);
      return;
    }
    const target: SuiteTarget = { model: model.model, strict: true };
    if (typeof provider['label'] === 'string' && provider['label'] !== '') target.label = provider['label'];
    const config = isRecord(provider['config']) ? provider['config'] : {};
    const temperature = firstNumber(config, TEMPERATURE_KEYS);
    if (temperature !== undefined) target.temperature = temperature;
    const maxTokens = firstNumber(config, MAX_TOKENS_KEYS);
    if (maxTokens !== undefined) target.maxTokens = maxTokens;
    const formatSchema = responseFormatSchema(config);
    if (formatSchema) {
      schema ??= formatSchema;
      if (
        isRecord(config['response_format']) &&
        isRecord(config['response_format']['json_schema']) &&
        config['response_format']['json_schema']['strict'] === false
      ) {
        target.strict = false;
      }
    }
    for (const key of Object.keys(config)) {
      if (![...TEMPERATURE_KEYS, ...MAX_TOKENS_KEYS, 'response_format'].includes(key)) {
        unsupported.add(
          `${path}.config.${key}`,
          'not a target setting (a target has strict, temperature and maxTokens)',
        );
      }
    }
    for (const key of Object.keys(provider)) {
      if (!['id', 'label', 'config'].includes(key)) unsupported.add(`${path}.${key}`, 'not a target setting');
    }
    targets.push(target);
  });
  return { targets, schema };
}
