import { ScratchpadBudgetError } from '@agentdesk/compressor';
import { ProviderError, SchemaLoweringError, type ProviderName } from '@agentdesk/providers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failedTurnError } from '../agent/turn-outcome';
import { turnErrorOf } from '../agent/turn/turn-failure';
import { httpStatusOf } from '../errors/http-status';
import { toTargetError } from '../shared/structured-output/target-result';
import { fromModelFailure } from '../openai-compat/openai-error';
import { ModelCallTimeout } from './call-deadline';
import { InvalidModelOutputError } from './invalid-model-output-error';
import { classifyModelFailure, modelFailureKinds, type ModelFailure } from './model-failure';
import { modelFailureToApiError } from './model-failure-to-api-error';
import { ModelRoutingError } from './model-router';

const providers: readonly ProviderName[] = ['openai', 'anthropic', 'gemini'];
const ourCodes = ['aborted', 'timeout', 'network_error', 'malformed_response'];

const providerErrorArbitrary = fc
  .record({
    provider: fc.constantFrom(...providers),
    status: fc.option(
      fc.oneof(
        fc.constantFrom(400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 503, 529),
        fc.integer({ min: 100, max: 599 }),
      ),
      { nil: undefined },
    ),
    code: fc.option(fc.oneof(fc.constantFrom(...ourCodes), fc.string({ maxLength: 20 })), { nil: undefined }),
    message: fc.string({ maxLength: 40 }),
    requestId: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
    retryAfterMs: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: undefined }),
  })
  .map((fields) => new ProviderError(fields));

/** What the vocabulary promises for a provider's failure, written independently of the classifier. */
function expectedKind(error: ProviderError): ModelFailure['kind'] {
  if (error.code === 'aborted') return 'cancelled';
  if (error.status === 429) return 'rate-limited';
  if (error.status !== undefined && [400, 404, 413, 422].includes(error.status)) return 'invalid-request';
  if (error.status === 401 || error.status === 403) return 'authentication';
  if (error.code === 'timeout') return 'timeout';
  return 'upstream-unavailable';
}

/** Anything a model call can throw, of every class the classifier knows and some it does not. */
const thrownArbitrary: fc.Arbitrary<{ error: unknown; signal?: AbortSignal }> = fc.oneof(
  providerErrorArbitrary.map((error) => ({ error })),
  fc
    .record({
      model: fc.string({ maxLength: 10 }),
      provider: fc.constantFrom(...providers),
      unknown: fc.boolean(),
    })
    .map(({ model, provider, unknown }) => ({
      error: new ModelRoutingError(
        unknown
          ? { kind: 'unknown-model', model }
          : { kind: 'provider-not-configured', model, provider, variable: 'OPENAI_API_KEY' },
      ),
    })),
  fc.constant({ error: new SchemaLoweringError('recursive-schema', '/$defs/Node', 'recursive') }),
  fc.constant({ error: new InvalidModelOutputError('prose, not JSON') }),
  fc.constant({ error: new ScratchpadBudgetError(256, 1024) }),
  fc.constant({ error: new ModelCallTimeout(1000) }),
  fc.anything().map((error) => ({ error })),
  providerErrorArbitrary.map((error) => {
    const controller = new AbortController();
    controller.abort();
    return { error, signal: controller.signal };
  }),
);

describe('classifyModelFailure', () => {
  it('gives every provider error exactly the kind its status and code call for, keeping its fields', () => {
    fc.assert(
      fc.property(providerErrorArbitrary, (error) => {
        const failure = classifyModelFailure(error);
        expect(failure.kind).toBe(expectedKind(error));
        expect(modelFailureKinds).toContain(failure.kind);
        expect('upstream' in failure && failure.upstream).toMatchObject({
          provider: error.provider,
          status: error.status,
          code: error.code || undefined,
          requestId: error.requestId,
          retryAfterMs: error.retryAfterMs,
        });
      }),
    );
  });

  it('calls a call whose signal was aborted cancelled, or timed out when its deadline aborted it', () => {
    fc.assert(
      fc.property(providerErrorArbitrary, (error) => {
        const cancelled = new AbortController();
        cancelled.abort();
        expect(classifyModelFailure(error, cancelled.signal).kind).toBe('cancelled');
        const deadline = new AbortController();
        deadline.abort(new ModelCallTimeout(5));
        expect(classifyModelFailure(error, deadline.signal).kind).toBe('timeout');
      }),
    );
  });

  it('reaches every kind', () => {
    const reached = new Set<string>();
    fc.assert(
      fc.property(thrownArbitrary, ({ error, signal }) => {
        reached.add(classifyModelFailure(error, signal).kind);
      }),
      { numRuns: 2000 },
    );
    expect([...reached].sort()).toEqual([...modelFailureKinds].sort());
  });

  it('keeps anything else as internal, without its message', () => {
    const failure = classifyModelFailure(new Error('secret detail'));
    expect(failure.kind).toBe('internal');
    expect(failure.message).not.toContain('secret');
  });
});

describe('the four mappings of a model failure', () => {
  it('answer every failure with a 4xx or 5xx on the API and the OpenAI surface, and record it in the lab and the turn', () => {
    fc.assert(
      fc.property(thrownArbitrary, ({ error, signal }) => {
        const failure = classifyModelFailure(error, signal);
        const apiStatus = httpStatusOf(modelFailureToApiError(failure).code);
        expect(apiStatus).toBeGreaterThanOrEqual(400);
        expect(apiStatus).toBeLessThan(600);
        const openAI = fromModelFailure(failure);
        expect(openAI.status).toBeGreaterThanOrEqual(400);
        expect(openAI.status).toBeLessThan(600);
        expect(openAI.body.error.message.length).toBeGreaterThan(0);
        const target = toTargetError(failure);
        expect(['routing', 'schema-lowering', 'provider', 'timeout', 'internal']).toContain(target.kind);
        expect(target.code.length).toBeGreaterThan(0);
        const turnError = turnErrorOf(failure);
        expect(turnError.code.length).toBeGreaterThan(0);
        const turnStatus = httpStatusOf(
          failedTurnError({ turnId: 't', error: turnError } as Parameters<typeof failedTurnError>[0]).code,
        );
        // A schema the model cannot take is the caller's to fix; everything else failed past them.
        if (failure.kind === 'invalid-schema') expect(turnStatus).toBe(400);
        else {
          expect(turnStatus).toBeGreaterThanOrEqual(500);
          expect(turnStatus).toBeLessThan(600);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('are server errors for what the provider did and client errors for what the caller sent', () => {
    fc.assert(
      fc.property(providerErrorArbitrary, (error) => {
        const failure = classifyModelFailure(error);
        const openAIStatus = fromModelFailure(failure).status;
        if (failure.kind === 'invalid-request' || failure.kind === 'rate-limited')
          expect(openAIStatus).toBe(error.status);
        else if (failure.kind === 'cancelled') expect(openAIStatus).toBe(499);
        else expect(openAIStatus).toBeGreaterThanOrEqual(500);
      }),
    );
    const unknown = classifyModelFailure(new ModelRoutingError({ kind: 'unknown-model', model: 'x' }));
    expect(fromModelFailure(unknown).status).toBe(404);
    expect(httpStatusOf(modelFailureToApiError(unknown).code)).toBe(400);
    const schema = classifyModelFailure(new SchemaLoweringError('recursive-schema', '/a', 'recursive'));
    expect(fromModelFailure(schema).status).toBe(400);
    expect(toTargetError(schema)).toEqual({
      kind: 'schema-lowering',
      code: 'recursive-schema',
      message: 'recursive',
      pointer: '/a',
    });
  });

  it('store the provider’s own fields in the turn and the lab', () => {
    const error = new ProviderError({
      provider: 'anthropic',
      status: 529,
      code: 'overloaded_error',
      message: 'Overloaded',
      requestId: 'req_1',
      retryAfterMs: undefined,
    });
    const failure = classifyModelFailure(error);
    expect(failure.kind).toBe('upstream-unavailable');
    expect(turnErrorOf(failure)).toEqual({
      code: 'overloaded_error',
      message: 'Overloaded',
      provider: 'anthropic',
      status: 529,
      requestId: 'req_1',
    });
    expect(toTargetError(failure)).toEqual({
      kind: 'provider',
      code: 'overloaded_error',
      message: 'Overloaded',
      status: 529,
      requestId: 'req_1',
    });
  });
});
