import { performance } from 'node:perf_hooks';
import {
  executeChatCompletion,
  lowerJsonSchema,
  type ChatCompletionResult,
  type ChatMessage,
  type JsonSchema,
  type ProviderName,
  type SchemaChange,
  type SchemaTarget,
} from '@agentdesk/providers';
import type { Logger } from 'pino';
import { withDeadline } from '../../model-access/call-deadline';
import { classifyModelFailure } from '../../model-access/model-failure';
import type { ModelRouter } from '../../model-access/model-router';
import { toTargetError, type TargetError, type TargetResult } from './target-result';

/** One target of a run: a model, and everything every target of the run shares. */
export interface TargetCall {
  readonly model: string;
  readonly schema: JsonSchema;
  /** The `name` of the response format (OpenAI requires `^[a-zA-Z0-9_-]{1,64}$`). */
  readonly schemaName: string;
  readonly strict: boolean;
  readonly messages: readonly ChatMessage[];
  /** Limit of the whole target, retries included. */
  readonly timeoutMs: number;
  /** Sampling temperature; the provider's default when absent. */
  readonly temperature?: number;
  /** Most tokens the answer may take; the provider's default when absent. */
  readonly maxTokens?: number;
  /** Aborts the call (a QA run cancelled): the target ends as a failure like a timeout does. */
  readonly signal?: AbortSignal;
}

export interface TargetDependencies {
  readonly router: Pick<ModelRouter, 'resolve'>;
  readonly logger: Pick<Logger, 'error'>;
}

interface Lowering {
  readonly target: SchemaTarget | null;
  readonly schema: unknown;
  readonly changes: readonly SchemaChange[];
}

/** The dialect each provider's adapter lowers the schema to; OpenAI lowers only in strict mode. */
function loweringTarget(provider: ProviderName, strict: boolean): SchemaTarget | null {
  switch (provider) {
    case 'openai':
      return strict ? 'openai-strict' : null;
    case 'anthropic':
      return 'anthropic';
    case 'gemini':
      return 'gemini';
  }
}

/**
 * Lowers the schema the way the provider call will, before calling: a schema the provider cannot
 * take fails here without a call, and a target whose call fails still shows what it was sent.
 */
function lowerFor(provider: ProviderName, call: TargetCall): Lowering {
  const target = loweringTarget(provider, call.strict);
  if (target === null) return { target: null, schema: call.schema, changes: [] };
  const lowered = lowerJsonSchema(call.schema, target);
  return { target, schema: lowered.schema, changes: lowered.changes };
}

function elapsedSince(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

function succeeded(
  call: TargetCall,
  lowering: Lowering,
  result: ChatCompletionResult,
  startedAt: number,
): TargetResult {
  const reported = result.schemaLowering;
  return {
    model: call.model,
    provider: result.provider,
    status: 'ok',
    schemaTarget: reported?.target ?? lowering.target,
    loweredSchema: reported?.schema ?? lowering.schema,
    changes: reported?.changes ?? lowering.changes,
    warnings: result.warnings,
    request: result.request,
    // OpenAI sends a refusal apart from the text: it is what the model answered.
    rawOutput: result.text || (result.refusal ?? ''),
    json: result.json ?? null,
    validation: result.validation ?? null,
    finishReason: result.finishReason,
    usage: result.usage,
    latencyMs: elapsedSince(startedAt),
    attempts: result.attempts,
  };
}

function failed(
  call: TargetCall,
  provider: ProviderName | null,
  lowering: Lowering | null,
  error: TargetError,
  startedAt: number,
): TargetResult {
  return {
    model: call.model,
    provider,
    status: 'error',
    schemaTarget: lowering?.target ?? null,
    loweredSchema: lowering?.schema ?? null,
    changes: lowering?.changes ?? [],
    warnings: [],
    request: null,
    rawOutput: null,
    json: null,
    validation: null,
    finishReason: null,
    usage: null,
    latencyMs: elapsedSince(startedAt),
    attempts: null,
    error,
  };
}

/**
 * Calls one target with the run's schema as a strict-or-not `json_schema` response format.
 * Never throws: routing errors, schemas the provider cannot take, provider failures (after the
 * single retry policy), timeouts and bugs all become a result with `status: 'error'`.
 */
export async function runTarget(dependencies: TargetDependencies, call: TargetCall): Promise<TargetResult> {
  const startedAt = performance.now();
  let provider: ProviderName | null = null;
  let lowering: Lowering | null = null;
  try {
    const resolved = dependencies.router.resolve(call.model);
    provider = resolved.provider;
    lowering = lowerFor(resolved.provider, call);
    const loweredBeforeCall = lowering;
    const result = await withDeadline(call.timeoutMs, (deadline) =>
      executeChatCompletion(resolved.client, {
        modelParams: {
          model: resolved.model,
          ...(call.temperature !== undefined && { temperature: call.temperature }),
          ...(call.maxTokens !== undefined && { maxTokens: call.maxTokens }),
        },
        messages: call.messages,
        responseFormat: {
          type: 'json_schema',
          schema: call.schema,
          name: call.schemaName,
          strict: call.strict,
        },
        signal: call.signal === undefined ? deadline : AbortSignal.any([deadline, call.signal]),
      }),
    );
    return succeeded(call, loweredBeforeCall, result, startedAt);
  } catch (error) {
    const failure = classifyModelFailure(error);
    if (failure.kind === 'internal')
      dependencies.logger.error(
        { err: error, model: call.model },
        'structured-output lab target failed unexpectedly',
      );
    const result = failed(call, provider, lowering, toTargetError(failure), startedAt);
    // A provider failure still shows what was sent and how often: what QA needs to see why it failed.
    const upstream = 'upstream' in failure ? failure.upstream : undefined;
    return upstream ? { ...result, request: upstream.request ?? null, attempts: upstream.attempts } : result;
  }
}
