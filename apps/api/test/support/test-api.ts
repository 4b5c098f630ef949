import type { Type } from '@nestjs/common';
import type { InjectOptions, LightMyRequestResponse as InjectResponse } from 'fastify';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { loadConfig } from '../../src/config/app-config';
import { createApp, type AgentDeskApi } from '../../src/create-app';
import type { TestDatabase } from '@agentdesk/storage/testing';
import { testDatabaseFactories, type Engine } from './engines';
import { LogCapture } from './log-capture';
import { emulatorEnvironment } from './provider-emulator';

export type { InjectResponse };

/** A running test API over its own isolated database. */
export interface TestApi {
  readonly api: AgentDeskApi;
  readonly database: TestDatabase;
  readonly logs: LogCapture;
  /** The provider emulator every model of this API talks to (script it per test). */
  readonly emulator: ProviderEmulator;
  /** `app.inject` with a JSON body helper and an optional key. */
  request(options: TestRequest): Promise<InjectResponse>;
  close(): Promise<void>;
}

/** One request; `key` goes into `Authorization: Bearer`. */
export interface TestRequest {
  readonly method: NonNullable<InjectOptions['method']>;
  readonly url: string;
  readonly key?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** Environment the tests start from: generous limits so only the limit tests hit them. */
export const baseTestEnvironment: Readonly<Record<string, string>> = {
  LOG_LEVEL: 'info',
  // Tests that listen take any free port: parallel test files must never collide.
  PORT: '0',
  AGENTDESK_RATE_LIMIT_MAX: '100000',
  AGENTDESK_AUTH_FAILURE_LIMIT: '100000',
  // No Docker engine unless a suite asks for one (sandbox suites pass the test engine's DOCKER_HOST).
  AGENTDESK_SANDBOX_ENABLED: 'false',
};

/** Creates an isolated database on the engine and an API over it (not listening: use `request`). */
export async function startTestApi(
  engine: Engine,
  environment: Record<string, string> = {},
  options: { extraModules?: readonly Type[] } = {},
): Promise<TestApi> {
  const database = await testDatabaseFactories[engine]();
  const emulator = await startProviderEmulator();
  const logs = new LogCapture();
  try {
    const config = loadConfig({ ...baseTestEnvironment, ...emulatorEnvironment(emulator), ...environment });
    const api = await createApp(config, {
      database: database.database,
      clock: database.clock.now,
      logDestination: logs,
      ...(options.extraModules === undefined ? {} : { extraModules: options.extraModules }),
    });
    return {
      api,
      database,
      logs,
      emulator,
      request: (request) => injectRequest(api, request),
      async close() {
        try {
          await api.close();
        } finally {
          await emulator.close();
          await database.cleanup();
        }
      },
    };
  } catch (error) {
    await emulator.close();
    await database.cleanup();
    throw error;
  }
}

/** Sends one request through Fastify's injection (no socket). */
export function injectRequest(api: AgentDeskApi, request: TestRequest): Promise<InjectResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.key !== undefined) headers['authorization'] = `Bearer ${request.key}`;
  const options: InjectOptions = { method: request.method, url: request.url, headers };
  if (request.body !== undefined) {
    options.payload = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  return api.app.inject(options);
}
