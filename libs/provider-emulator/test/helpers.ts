import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI, type ModelParams, type RequestOptions } from '@google/generative-ai';
import OpenAI from 'openai';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ProviderEmulator } from '../src/index';

/** The OpenAI SDK pointed at the emulator, without retries unless asked. */
export function openAiClient(
  emulator: ProviderEmulator,
  options: { maxRetries?: number; timeout?: number } = {},
): OpenAI {
  // logLevel 'off' keeps the SDK's own logging of deliberately malformed chunks out of the test output.
  return new OpenAI({
    apiKey: 'sk-test',
    baseURL: emulator.openaiBaseUrl,
    maxRetries: 0,
    logLevel: 'off',
    ...options,
  });
}

/** The Anthropic SDK (API version 2026-10-21 unless another version header is given). */
export function anthropicClient(
  emulator: ProviderEmulator,
  options: { version?: '2023-06-01'; maxRetries?: number; timeout?: number } = {},
): Anthropic {
  const { version, ...rest } = options;
  return new Anthropic({
    apiKey: 'sk-ant-test',
    baseURL: emulator.anthropicBaseUrl,
    maxRetries: 0,
    logLevel: 'off',
    ...(version === undefined ? {} : { defaultHeaders: { 'anthropic-version': version } }),
    ...rest,
  });
}

/** The legacy Gemini SDK's model bound to the emulator's v1beta API. */
export function geminiModel(
  emulator: ProviderEmulator,
  params: Partial<ModelParams> = {},
  options: RequestOptions = {},
) {
  return new GoogleGenerativeAI('gemini-key').getGenerativeModel(
    { model: 'gemini-test', ...params },
    { baseUrl: emulator.geminiBaseUrl, apiVersion: 'v1beta', ...options },
  );
}

/** Returns the rejection of a promise (failing the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** Validates a value against a JSON schema and returns the Ajv error text ('' when valid). */
export function schemaErrors(schema: object, value: unknown): string {
  const validate = ajv.compile(schema);
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

/** Posts raw JSON (for requests the SDKs would refuse to build). */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * Polls `probe` every 25 ms until it returns a value; throws after `attempts` tries (default 400),
 * naming what it waited for and the state `state` describes. Tests wait on outcomes, never on a
 * fixed sleep; patience counts probes, not clock time (as apps/api/test/support/wait-for.ts).
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  { attempts = 400, state }: { attempts?: number; state?: () => unknown } = {},
): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const seen = state === undefined ? '' : `\nstate seen at the deadline: ${JSON.stringify(state(), null, 2)}`;
  throw new Error(`timed out waiting for ${what} (${attempts} probes)${seen}`);
}
