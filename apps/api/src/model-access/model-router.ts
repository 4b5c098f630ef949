import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import { upstreamHttp, type ProviderName, type SupportedClient } from '@agentdesk/providers';
import type { ModelRoute, ModelRoutingSettings } from '../config/provider-settings';

/** Model-name prefixes that identify a provider when no configured route matches. */
const builtInPrefixes: ReadonlyArray<readonly [string, ProviderName]> = [
  ['gpt-', 'openai'],
  ['chatgpt-', 'openai'],
  ['o1', 'openai'],
  ['o3', 'openai'],
  ['o4', 'openai'],
  ['claude-', 'anthropic'],
  ['gemini-', 'gemini'],
];

export type ModelRoutingFailure =
  | { kind: 'unknown-model'; model: string }
  | { kind: 'provider-not-configured'; model: string; provider: ProviderName; variable: string };

/** A model that cannot be served: unknown, or its provider has no credentials. */
export class ModelRoutingError extends Error {
  override readonly name = 'ModelRoutingError';
  constructor(readonly failure: ModelRoutingFailure) {
    super(
      failure.kind === 'unknown-model'
        ? `model: "${failure.model}" matches no provider; use a gpt-/o-series, claude- or gemini- model, or add a route in AGENTDESK_MODEL_ROUTES`
        : `model: "${failure.model}" is served by ${failure.provider}, which is not configured on this server (${failure.variable} is not set)`,
    );
  }
}

export interface ResolvedModel {
  readonly model: string;
  readonly provider: ProviderName;
  readonly client: SupportedClient;
}

function matches(route: ModelRoute, model: string): boolean {
  return route.pattern.endsWith('*') ? model.startsWith(route.pattern.slice(0, -1)) : route.pattern === model;
}

/**
 * The provider that serves a model name (configured routes first, then built-in prefixes), or null
 * when none would; the router and the usage report share it so both name the same provider.
 */
export function providerOfModel(model: string, routes: readonly ModelRoute[]): ProviderName | null {
  const route = routes.find((candidate) => matches(candidate, model));
  return route?.provider ?? builtInPrefixes.find(([prefix]) => model.startsWith(prefix))?.[1] ?? null;
}

const keyVariable: Record<ProviderName, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};

/**
 * Chooses the provider for a model name (configured routes first, then name prefixes) and hands out
 * one SDK client per endpoint, reused across requests so connections stay pooled. SDK retries are
 * off: `executeChatCompletion` runs the only retry loop.
 */
export class ModelRouter {
  readonly #clients = new Map<string, SupportedClient>();
  // One keep-alive pool per upstream origin for the OpenAI and Anthropic clients: the global fetch
  // costs several times more CPU per call (see docs/benchmarks/chat-completions-profile.md).
  readonly #upstream = upstreamHttp();

  /** Everything is read at start (`loadConfig`): nothing here reads the environment. */
  constructor(private readonly settings: ModelRoutingSettings) {}

  get defaultModel(): string {
    return this.settings.defaultModel;
  }

  /** The per-request provider timeout; streams use it as their idle limit between chunks. */
  get requestTimeoutMs(): number {
    return this.settings.requestTimeoutMs;
  }

  /** The providers that have credentials, for `/v1/models` and diagnostics. */
  configuredProviders(): ProviderName[] {
    return (Object.keys(this.settings.endpoints) as ProviderName[]).filter(
      (provider) => this.settings.endpoints[provider].apiKey,
    );
  }

  /**
   * Closes the pooled upstream connections once the app has stopped: Nest calls it after the HTTP
   * server closed, so calls still in flight finish first (undici's close waits for them).
   */
  async onApplicationShutdown(): Promise<void> {
    await this.#upstream.close();
  }

  resolve(model: string): ResolvedModel {
    const route = this.settings.routes.find((candidate) => matches(candidate, model));
    const provider = providerOfModel(model, this.settings.routes);
    if (!provider) throw new ModelRoutingError({ kind: 'unknown-model', model });
    const endpoint = this.settings.endpoints[provider];
    const apiKey = route?.apiKeyEnv ? route.apiKey?.reveal() : endpoint.apiKey?.reveal();
    if (!apiKey) {
      throw new ModelRoutingError({
        kind: 'provider-not-configured',
        model,
        provider,
        variable: route?.apiKeyEnv ?? keyVariable[provider],
      });
    }
    const baseUrl = route?.baseUrl ?? endpoint.baseUrl;
    const cacheKey = `${provider}\u0000${baseUrl ?? ''}\u0000${route?.apiKeyEnv ?? ''}\u0000${provider === 'gemini' ? model : ''}`;
    let client = this.#clients.get(cacheKey);
    if (!client) {
      client = this.createClient(provider, model, apiKey, baseUrl);
      this.#clients.set(cacheKey, client);
    }
    return { model, provider, client };
  }

  private createClient(
    provider: ProviderName,
    model: string,
    apiKey: string,
    baseUrl: string | undefined,
  ): SupportedClient {
    const timeout = this.settings.requestTimeoutMs;
    const fetch = this.#upstream.fetch;
    switch (provider) {
      case 'openai':
        return new OpenAI({ apiKey, maxRetries: 0, timeout, fetch, ...(baseUrl && { baseURL: baseUrl }) });
      case 'anthropic':
        return new Anthropic({ apiKey, maxRetries: 0, timeout, fetch, ...(baseUrl && { baseURL: baseUrl }) });
      case 'gemini':
        // The legacy Gemini client is bound to one model, so there is one client per model name; it
        // takes no `fetch` option and uses the global one.
        return new GoogleGenerativeAI(apiKey).getGenerativeModel(
          { model },
          { timeout, apiVersion: 'v1beta', ...(baseUrl && { baseUrl }) },
        );
    }
  }
}
