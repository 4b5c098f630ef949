import { ProviderError, SchemaLoweringError } from '@agentdesk/providers';
import { UnauthorizedException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ModelRoutingError } from '../model-access/model-router';
import { ApiError, ApiErrorCode, UNAUTHENTICATED_MESSAGE } from '../errors/api-error';
import { chatCompletionRequestSchema } from './chat-completion-request';
import {
  agentDeskCodeOf,
  fromValidationError,
  OpenAICompatError,
  openAIErrorBodySchema,
  toOpenAIError,
} from './openai-error';

const validationOf = (body: unknown) => {
  const parsed = chatCompletionRequestSchema.safeParse(body);
  if (parsed.success) throw new Error('expected a validation error');
  return fromValidationError(parsed.error, body);
};

const messages = [{ role: 'user', content: 'hi' }];

const providerError = (fields: Partial<ConstructorParameters<typeof ProviderError>[0]>) =>
  new ProviderError({
    provider: 'openai',
    status: undefined,
    code: undefined,
    message: 'boom',
    requestId: undefined,
    retryAfterMs: undefined,
    ...fields,
  });

describe('fromValidationError', () => {
  it('names unknown fields the way OpenAI does, before any other problem', () => {
    expect(validationOf({ model: 'gpt-test', messages: [], foo: 1 })).toEqual({
      status: 400,
      body: {
        error: {
          message: 'Unrecognized request argument supplied: foo',
          type: 'invalid_request_error',
          param: null,
          code: 'unrecognized_argument',
        },
      },
    });
    expect(validationOf({ model: 'gpt-test', messages, foo: 1, bar: 2 }).body.error.message).toBe(
      'Unrecognized request arguments supplied: foo, bar',
    );
    expect(
      validationOf({ model: 'gpt-test', messages: [{ role: 'user', content: 'x', extra: 1 }] }).body.error,
    ).toMatchObject({
      message: 'Unrecognized request argument supplied: messages[0].extra',
      param: 'messages[0]',
    });
  });

  it('reports missing and invalid parameters with their OpenAI path', () => {
    expect(validationOf({ model: 'gpt-test' }).body.error).toEqual({
      message: "Missing required parameter: 'messages'.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'missing_required_parameter',
    });
    expect(validationOf({ model: 'gpt-test', messages, temperature: 'hot' }).body.error).toMatchObject({
      message: "Invalid value for 'temperature': Invalid input: expected number, received string",
      param: 'temperature',
      code: 'invalid_value',
    });
    expect(
      validationOf({ model: 'gpt-test', messages: [{ role: 'robot', content: 'x' }] }).body.error.param,
    ).toBe('messages[0].role');
    expect(validationOf([1, 2]).body.error).toMatchObject({ param: null, code: 'invalid_body' });
  });
});

describe('toOpenAIError', () => {
  it('passes a provider’s own client errors on, and tells SDKs not to retry what was already retried', () => {
    expect(
      toOpenAIError(providerError({ status: 429, code: 'rate_limit_exceeded', retryAfterMs: 1500 })),
    ).toEqual({
      status: 429,
      body: {
        error: {
          message: 'openai: boom',
          type: 'rate_limit_error',
          param: null,
          code: 'rate_limit_exceeded',
        },
      },
      headers: { 'x-should-retry': 'false', 'retry-after': '2' },
    });
    expect(toOpenAIError(providerError({ status: 400 })).status).toBe(400);
    expect(toOpenAIError(providerError({ status: 404, code: 'model_not_found' })).body.error.code).toBe(
      'model_not_found',
    );
  });

  it('turns provider outages into gateway errors, and the provider refusing our credentials too', () => {
    expect(toOpenAIError(providerError({ status: 500 }))).toMatchObject({
      status: 502,
      body: { error: { type: 'server_error', code: 'upstream_error' } },
    });
    expect(
      toOpenAIError(providerError({ status: 529, code: 'overloaded_error', provider: 'anthropic' })).status,
    ).toBe(502);
    expect(toOpenAIError(providerError({ code: 'timeout' }))).toMatchObject({
      status: 504,
      body: { error: { code: 'upstream_timeout' } },
    });
    // Not the caller's key: a 401 here would make clients think their AgentDesk key is wrong.
    expect(toOpenAIError(providerError({ status: 401 }))).toMatchObject({
      status: 502,
      body: { error: { code: 'upstream_authentication_failed' } },
    });
    expect(toOpenAIError(providerError({ code: 'aborted' })).status).toBe(499);
  });

  it('maps routing and schema failures', () => {
    expect(toOpenAIError(new ModelRoutingError({ kind: 'unknown-model', model: 'llama' }))).toMatchObject({
      status: 404,
      body: { error: { type: 'invalid_request_error', param: 'model', code: 'model_not_found' } },
    });
    expect(
      toOpenAIError(
        new ModelRoutingError({
          kind: 'provider-not-configured',
          model: 'gemini-x',
          provider: 'gemini',
          variable: 'GEMINI_API_KEY',
        }),
      ).status,
    ).toBe(503);
    expect(
      toOpenAIError(new SchemaLoweringError('invalid-schema', '/properties/a', 'bad schema')),
    ).toMatchObject({
      status: 400,
      body: { error: { param: 'response_format', code: 'invalid_schema' } },
    });
  });

  it('gives every 401 one body, whatever the cause', () => {
    const bodies = [
      new ApiError(ApiErrorCode.Unauthenticated, 'revoked key'),
      new ApiError(ApiErrorCode.Unauthenticated, UNAUTHENTICATED_MESSAGE),
      new UnauthorizedException('no credentials'),
    ].map((error) => toOpenAIError(error));
    for (const answer of bodies) expect(answer).toEqual(bodies[0]);
    expect(bodies[0]).toEqual({
      status: 401,
      body: {
        error: {
          message: UNAUTHENTICATED_MESSAGE,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    });
  });

  it('keeps the guard’s 403 and 429 (with retry-after), and hides the details of bugs', () => {
    expect(
      toOpenAIError(new ApiError(ApiErrorCode.Forbidden, 'A viewer key may not use this function')),
    ).toMatchObject({
      status: 403,
      body: {
        error: { message: 'A viewer key may not use this function', code: 'insufficient_permissions' },
      },
    });
    expect(
      toOpenAIError(new ApiError(ApiErrorCode.RateLimited, 'slow down', { retryAfterSeconds: 7 })),
    ).toMatchObject({
      status: 429,
      body: { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
      headers: { 'retry-after': '7' },
    });
    const bug = toOpenAIError(new TypeError('secret internals'));
    expect(bug.status).toBe(500);
    expect(JSON.stringify(bug.body)).not.toContain('secret');
  });

  it('always produces exactly OpenAI’s four error fields', () => {
    for (const error of [
      new OpenAICompatError(validationOf({})),
      providerError({ status: 503 }),
      new Error('x'),
      new ApiError(ApiErrorCode.PayloadTooLarge, 'big'),
    ]) {
      expect(openAIErrorBodySchema.safeParse(toOpenAIError(error).body).success).toBe(true);
    }
  });
});

describe('agentDeskCodeOf', () => {
  it('keeps error metrics on AgentDesk’s small set of codes', () => {
    expect(agentDeskCodeOf(new OpenAICompatError(validationOf({})))).toBe(ApiErrorCode.ValidationFailed);
    expect(agentDeskCodeOf(providerError({ status: 429, code: 'anything-the-provider-says' }))).toBe(
      ApiErrorCode.UpstreamFailed,
    );
    expect(agentDeskCodeOf(providerError({ code: 'timeout' }))).toBe(ApiErrorCode.UpstreamTimeout);
    expect(agentDeskCodeOf(new ModelRoutingError({ kind: 'unknown-model', model: 'x' }))).toBe(
      ApiErrorCode.UnknownModel,
    );
    expect(agentDeskCodeOf(new ApiError(ApiErrorCode.Forbidden, 'no'))).toBe(ApiErrorCode.Forbidden);
  });
});
