import { z } from 'zod';
import type { ProviderName } from '@agentdesk/providers';
import { Secret } from './secret';

/** Credentials and endpoint of one provider, from the environment. */
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
}

export interface ModelRoutingSettings {
  readonly endpoints: Readonly<Record<ProviderName, ProviderEndpoint>>;
  readonly routes: readonly ModelRoute[];
  /** Used when a session names no model. */
  readonly defaultModel: string;
  readonly requestTimeoutMs: number;
}

const routeSchema = z
  .object({
    pattern: z.string().min(1),
    provider: z.enum(['openai', 'anthropic', 'gemini']),
    baseUrl: z.url().optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional(),
  })
  .strict();

const optionalUrl = z.url().optional();

/** Thrown for an invalid routing environment; names the variable, never its value. */
export class ModelRoutingConfigError extends Error {
  override readonly name = 'ModelRoutingConfigError';
}

function readEndpoint(
  environment: NodeJS.ProcessEnv,
  keyNames: string[],
  baseUrlName: string,
): ProviderEndpoint {
  const keyName = keyNames.find((name) => environment[name]);
  const baseUrl = optionalUrl.safeParse(environment[baseUrlName] || undefined);
  if (!baseUrl.success) throw new ModelRoutingConfigError(`${baseUrlName} must be an absolute URL`);
  return { apiKey: keyName ? new Secret(environment[keyName]!) : undefined, baseUrl: baseUrl.data };
}

/**
 * Reads provider credentials (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY` or
 * `GOOGLE_API_KEY`), base URLs (`*_BASE_URL`), extra routes (`AGENTDESK_MODEL_ROUTES`, a JSON array of
 * `{pattern, provider, baseUrl?, apiKeyEnv?}`), the default model and the per-request timeout.
 */
export function readModelRoutingSettings(environment: NodeJS.ProcessEnv): ModelRoutingSettings {
  let routes: ModelRoute[] = [];
  const rawRoutes = environment['AGENTDESK_MODEL_ROUTES'];
  if (rawRoutes) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawRoutes);
    } catch {
      throw new ModelRoutingConfigError('AGENTDESK_MODEL_ROUTES must be a JSON array');
    }
    const result = z.array(routeSchema).safeParse(parsed);
    if (!result.success) {
      throw new ModelRoutingConfigError(
        `AGENTDESK_MODEL_ROUTES: ${result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      );
    }
    routes = result.data.map((route) => ({ ...route }));
  }
  const timeout = Number(environment['AGENTDESK_PROVIDER_TIMEOUT_MS'] ?? 120_000);
  if (!Number.isInteger(timeout) || timeout < 1_000) {
    throw new ModelRoutingConfigError('AGENTDESK_PROVIDER_TIMEOUT_MS must be an integer of at least 1000');
  }
  return {
    endpoints: {
      openai: readEndpoint(environment, ['OPENAI_API_KEY'], 'OPENAI_BASE_URL'),
      anthropic: readEndpoint(environment, ['ANTHROPIC_API_KEY'], 'ANTHROPIC_BASE_URL'),
      gemini: readEndpoint(environment, ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], 'GEMINI_BASE_URL'),
    },
    routes,
    defaultModel: environment['AGENTDESK_DEFAULT_MODEL'] || 'gpt-4o-mini',
    requestTimeoutMs: timeout,
  };
}
