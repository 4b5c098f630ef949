import type { ModelRoutingSettings } from '../config/provider-settings';
import { ModelRoutingError, type ModelRouter } from '../model-access/model-router';

/** One entry of OpenAI's `GET /v1/models` list. */
export interface OpenAIModel {
  id: string;
  object: 'model';
  /** When the model was created: unknown here, so 0 (the Unix epoch), never an invented date. */
  created: number;
  /** The provider that serves it: `openai`, `anthropic` or `gemini`. */
  owned_by: string;
}

export interface OpenAIModelList {
  object: 'list';
  data: OpenAIModel[];
}

/**
 * The models this server can name without asking a provider: the default model and every
 * exact-name route, each only when its provider has credentials here. Wildcard routes and the
 * name prefixes (`gpt-…`, `claude-…`, `gemini-…`) accept any matching name, which no list can
 * honestly enumerate; providers' own catalogues are not fetched (that would put an upstream call
 * behind every listing and still not say what this server's keys may use).
 */
export function listServedModels(router: ModelRouter, settings: ModelRoutingSettings): OpenAIModelList {
  const candidates = [
    settings.defaultModel,
    ...settings.routes.filter((route) => !route.pattern.endsWith('*')).map((route) => route.pattern),
  ];
  const data: OpenAIModel[] = [];
  for (const id of new Set(candidates)) {
    try {
      const resolved = router.resolve(id);
      data.push({ id, object: 'model', created: 0, owned_by: resolved.provider });
    } catch (error) {
      // Unknown or not configured: this server cannot serve it, so it is not listed.
      if (!(error instanceof ModelRoutingError)) throw error;
    }
  }
  return { object: 'list', data };
}
