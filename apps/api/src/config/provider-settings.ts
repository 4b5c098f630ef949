import type { ProviderName } from '@agentdesk/providers';
import { z } from 'zod';
import { wholeNumberVariable } from './environment-values';
import { Secret } from './secret';

/** Credentials and endpoint of one provider, read at start. */
export interface ProviderEndpoint {
  readonly apiKey: Secret | undefined;
  /** Optional base URL: a proxy, a regional endpoint, an OpenAI-compatible server, or the emulator. */
  readonly baseUrl: string | undefined;
}

/** Where a model name outside the built-in prefixes goes, e.g. a vLLM server behind the openai client. */
export interface ModelRoute {
  /** Exact name, or a prefix ending in `*` (`llama-*`). */
  readonly pattern: string;
  readonly provider: ProviderName;
  /** Overrides the provider's base URL for these models. */
  readonly baseUrl?: string;
  /** Environment variable holding the key for this route (for compatible servers with their own key). */
  readonly apiKeyEnv?: string;
  /** The value of `apiKeyEnv`, read at start (a route naming an unset variable fails the start). */
  readonly apiKey?: Secret;
}

/** Provider credentials, base URLs, model routes, the default model and the per-request timeout. */
export interface ModelRoutingSettings {
  readonly endpoints: Readonly<Record<ProviderName, ProviderEndpoint>>;
  readonly routes: readonly ModelRoute[];
  /** Used when a session names no model. */
  readonly defaultModel: string;
  /** Per provider request (each attempt); streams use it as their idle limit between chunks. */
  readonly requestTimeoutMs: number;
}

/** The variables of the model settings, with their meaning (part of the one config's list). */
export const providerEnvironment = {
  OPENAI_API_KEY: 'OpenAI API key',
  OPENAI_BASE_URL: 'OpenAI base URL (a proxy, an OpenAI-compatible server, the emulator)',
  ANTHROPIC_API_KEY: 'Anthropic API key',
  ANTHROPIC_BASE_URL: 'Anthropic base URL',
  GEMINI_API_KEY: 'Gemini API key',
  GOOGLE_API_KEY: 'Gemini API key (read when GEMINI_API_KEY is not set)',
  GEMINI_BASE_URL: 'Gemini base URL',
  AGENTDESK_MODEL_ROUTES:
    'JSON array of {pattern, provider, baseUrl?, apiKeyEnv?}: more model names (exact, or a prefix ending in *) and where they go',
  AGENTDESK_DEFAULT_MODEL: 'model of a session that names none',
  AGENTDESK_PROVIDER_TIMEOUT_MS:
    'provider request timeout in milliseconds (each attempt; idle limit of a stream)',
} as const;

type ProviderVariable = keyof typeof providerEnvironment;

const routeSchema = z
  .object({
    pattern: z.string().min(1),
    provider: z.enum(['openai', 'anthropic', 'gemini']),
    baseUrl: z.url().optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, { error: 'must be an environment variable name (A-Z, 0-9, _)' })
      .optional(),
  })
  .strict();

const optionalUrl = z.url({ error: 'must be an absolute URL' }).optional();
const optionalText = z.string().trim().min(1, { error: 'must not be blank' }).optional();

const routesVariable = z
  .string()
  .optional()
  .transform((text, context) => {
    if (text === undefined) return [];
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON array' });
      return z.NEVER;
    }
  })
  .pipe(z.array(routeSchema, { error: 'must be a JSON array' }));

const environmentSchema = z.object({
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: optionalUrl,
  GEMINI_API_KEY: optionalText,
  GOOGLE_API_KEY: optionalText,
  GEMINI_BASE_URL: optionalUrl,
  AGENTDESK_MODEL_ROUTES: routesVariable,
  AGENTDESK_DEFAULT_MODEL: optionalText.transform((value) => value ?? 'gpt-4o-mini'),
  AGENTDESK_PROVIDER_TIMEOUT_MS: wholeNumberVariable(1_000, 3_600_000).transform((value) => value ?? 120_000),
});

const blankToUndefined = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;
const secretOf = (value: string | undefined) => (value === undefined ? undefined : new Secret(value));

/**
 * Reads and checks the model settings at start: keys, base URLs, routes (each `apiKeyEnv` must be
 * set: its value is read here, never at request time), the default model and the timeout. Problems
 * name the variable, never its value.
 */
export function parseModelRoutingSettings(
  environment: Readonly<Record<string, string | undefined>>,
): { settings: ModelRoutingSettings; problems: [] } | { settings: undefined; problems: string[] } {
  const input = Object.fromEntries(
    Object.keys(providerEnvironment).map((name) => [name, blankToUndefined(environment[name])]),
  );
  const parsed = environmentSchema.safeParse(input);
  if (!parsed.success) {
    return {
      settings: undefined,
      problems: parsed.error.issues.map((issue) => {
        const [name, ...rest] = issue.path;
        const where = rest.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
        const meaning = providerEnvironment[String(name) as ProviderVariable] ?? 'setting';
        return `${String(name)}${where} (${meaning}): ${issue.message}`;
      }),
    };
  }
  const values = parsed.data;
  const problems: string[] = [];
  const routes = values.AGENTDESK_MODEL_ROUTES.map((route, index): ModelRoute => {
    if (route.apiKeyEnv === undefined) return route;
    const apiKey = blankToUndefined(environment[route.apiKeyEnv]);
    if (apiKey === undefined) {
      problems.push(
        `AGENTDESK_MODEL_ROUTES[${index}].apiKeyEnv: the route "${route.pattern}" reads its key from ${route.apiKeyEnv}, which is not set`,
      );
    }
    return { ...route, ...(apiKey !== undefined && { apiKey: new Secret(apiKey) }) };
  });
  if (problems.length > 0) return { settings: undefined, problems };
  return {
    settings: {
      endpoints: {
        openai: { apiKey: secretOf(values.OPENAI_API_KEY), baseUrl: values.OPENAI_BASE_URL },
        anthropic: { apiKey: secretOf(values.ANTHROPIC_API_KEY), baseUrl: values.ANTHROPIC_BASE_URL },
        gemini: {
          apiKey: secretOf(values.GEMINI_API_KEY ?? values.GOOGLE_API_KEY),
          baseUrl: values.GEMINI_BASE_URL,
        },
      },
      routes,
      defaultModel: values.AGENTDESK_DEFAULT_MODEL,
      requestTimeoutMs: values.AGENTDESK_PROVIDER_TIMEOUT_MS,
    },
    problems: [],
  };
}

/** Thrown by `readModelRoutingSettings` for invalid model settings; names variables, never values. */
export class ModelRoutingConfigError extends Error {
  override readonly name = 'ModelRoutingConfigError';
}

/** The model settings alone (tests, tools); `loadConfig` reads them with everything else. */
export function readModelRoutingSettings(
  environment: Readonly<Record<string, string | undefined>>,
): ModelRoutingSettings {
  const result = parseModelRoutingSettings(environment);
  if (result.settings === undefined) throw new ModelRoutingConfigError(result.problems.join('; '));
  return result.settings;
}
