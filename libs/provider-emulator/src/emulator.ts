import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatorContext } from './emulator-context';
import { RequestRecorder } from './recording/request-recorder';
import { ScriptQueue } from './script/script-queue';
import type { ScriptedReply } from './script/scripted-reply';
import { parseScriptedReplies } from './script/scripted-reply-schema';
import { createEmulatorServer } from './server';
import type { ProviderName, RecordedRequest } from './types';
import { parseVariationSettings, type VariationSettings } from './variation/variation-settings';

/** Options of {@link startProviderEmulator}. */
export interface ProviderEmulatorOptions {
  /** TCP port; default 0 (an ephemeral port, read it from `url`). */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** Requests kept for inspection (oldest dropped first); default 1000, 0 disables recording. */
  maxRecordedRequests?: number;
  /** Characters per streamed text delta when a reply does not set `chunkSize`; default 8. */
  defaultChunkSize?: number;
  /** Model ids listed by `GET /v1/models`; default `['gpt-test', 'claude-test', 'gemini-test']`. */
  models?: readonly string[];
  /**
   * Seeded, per-model invalid structured-output answers (invalid enum, missing required, wrong
   * type, prose around the JSON), e.g. `{ seed: 7, rates: { default: 0.1, 'gpt-4o-mini': 0.2 } }`.
   * Off by default: every default answer is then valid. Throws a TypeError when malformed.
   */
  variation?: VariationSettings;
}

/** A running emulator. */
export interface ProviderEmulator {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  readonly port: number;
  /** `${url}/v1`, for `new OpenAI({ baseURL })`. */
  readonly openaiBaseUrl: string;
  /** `url`, for `new Anthropic({ baseURL })` (the SDK appends `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** `url`, for `getGenerativeModel(params, { baseUrl, apiVersion: 'v1beta' })`. */
  readonly geminiBaseUrl: string;
  /**
   * Queues replies; each answers the first request that matches it (`match`), `times` times.
   * Throws a TypeError when a reply is malformed.
   */
  script(...replies: ScriptedReply[]): void;
  /** Replies still waiting for a request. */
  readonly pendingReplies: ScriptedReply[];
  /** Recorded provider requests, oldest first (a copy). */
  readonly requests: RecordedRequest[];
  /** The newest recorded request, optionally of one provider. */
  lastRequest(provider?: ProviderName): RecordedRequest | undefined;
  /** Clears the reply queue and the recorded requests (the variation settings stay). */
  reset(): void;
  /** The variation settings in force; undefined when every default answer is valid. */
  readonly variation: VariationSettings | undefined;
  /** Turns variation on with new settings, or off (`undefined`); throws a TypeError when malformed. */
  setVariation(settings: VariationSettings | undefined): void;
  /** Stops listening and drops every open connection, including hung and stalled ones. */
  close(): Promise<void>;
}

/**
 * Starts a local HTTP server that speaks the real wire protocols of OpenAI Chat Completions
 * (`POST /v1/chat/completions`, `GET /v1/models`), Anthropic Messages (`POST /v1/messages`,
 * API versions 2023-06-01 and 2026-10-21) and Gemini (`POST /v1beta/models/{model}:generateContent`
 * and `:streamGenerateContent?alt=sse`, also under `/v1`), so the official SDKs can be pointed at it.
 *
 * Every request is validated the way the real API validates it (strict JSON schemas, tool-call
 * pairing, removed parameters, Gemini's schema subset…) and rejected with that provider's exact
 * error body. Valid requests get the first matching scripted reply, or, with none queued, the
 * answer of a small deterministic model that honours the request: forced tool choices get a call
 * with schema-conforming arguments, JSON requests get JSON (conforming to the schema), tool results
 * get text that quotes them, anything else a short text (see `reply/default-answer.ts`).
 *
 * ```ts
 * const emulator = await startProviderEmulator();
 * emulator.script({ kind: 'text', text: 'Hi!' }, { kind: 'error', status: 429, retryAfterSeconds: 0 });
 * const openai = new OpenAI({ apiKey: 'sk-test', baseURL: emulator.openaiBaseUrl, maxRetries: 0 });
 * await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
 * emulator.lastRequest('openai')?.body; // the exact body the SDK sent
 * await emulator.close();
 * ```
 *
 * Out-of-process users script it over HTTP: `POST /_emulator/script`, `GET /_emulator/requests`,
 * `POST /_emulator/reset`, `PUT /_emulator/variation` (see the CLI, `src/cli.ts`).
 */
export async function startProviderEmulator(
  options: ProviderEmulatorOptions = {},
): Promise<ProviderEmulator> {
  const context: EmulatorContext = {
    queue: new ScriptQueue(),
    recorder: new RequestRecorder(options.maxRecordedRequests ?? 1000),
    defaultChunkSize: options.defaultChunkSize ?? 8,
    models: options.models ?? ['gpt-test', 'claude-test', 'gemini-test'],
    variation: options.variation === undefined ? undefined : parseVariationSettings(options.variation),
  };
  const server = createEmulatorServer(context);
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostForUrl}:${address.port}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    port: address.port,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    geminiBaseUrl: url,
    script: (...replies) => context.queue.enqueue(parseScriptedReplies(replies)),
    get pendingReplies() {
      return context.queue.pending();
    },
    get requests() {
      return context.recorder.all();
    },
    lastRequest: (provider) => context.recorder.last(provider),
    get variation() {
      return context.variation;
    },
    setVariation: (settings) => {
      context.variation = settings === undefined ? undefined : parseVariationSettings(settings);
    },
    reset: () => {
      context.queue.clear();
      context.recorder.clear();
    },
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        // Hung requests and stalled streams would otherwise keep close() waiting forever.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
