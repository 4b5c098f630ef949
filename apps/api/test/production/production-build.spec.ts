import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApi, type BuildApiResult } from '../../build-tools/build-api';
import { generateApiKey } from '../../src/core/api-key-format';
import { createOwnPostgresDatabase } from '../support/postgres-database-per-test';
import { emulatorEnvironment } from '../support/provider-emulator';
import { apiTestBaseImage } from '../support/sandbox-engine.global-setup';
import { startTestApi } from '../support/test-api';
import { waitFor } from '../support/wait-for';
import { startCompiledApi, type CompiledApiProcess } from './support/compiled-api-process';
import { docker, freeLoopbackPort } from './support/docker-cli';

const dockerfile = join(dirname(fileURLToPath(import.meta.url)), '../../Dockerfile');
const buildTimeoutMs = 300_000;

/**
 * The production start (`nx build api`): the compiled API runs with plain `node` from a folder of its
 * own, on SQLite and PostgreSQL, serves sessions, an agent turn and the same OpenAPI document as
 * the sources; and apps/api/Dockerfile packs it into an image that runs as a non-root user and
 * answers /healthz, /readyz and its HEALTHCHECK — built on the test run's private engine, FROM the
 * offline base image (no registry).
 */
describe('the compiled API (nx build api)', () => {
  let folder: string;
  let built: BuildApiResult;
  let emulator: ProviderEmulator;
  const adminKey = generateApiKey().key;

  beforeAll(async () => {
    // Built outside the workspace: main.js can only find the packages copied beside it.
    folder = await mkdtemp('/tmp/agentdesk-build-');
    built = await buildApi(join(folder, 'dist/apps/api'));
    emulator = await startProviderEmulator();
  }, buildTimeoutMs);
  afterAll(async () => {
    await emulator?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const mainJs = () => join(built.outdir, 'main.js');
  const environment = (extra: Record<string, string>) => ({
    ...emulatorEnvironment(emulator),
    AGENTDESK_ADMIN_KEY: adminKey,
    AGENTDESK_SANDBOX_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    ...extra,
  });

  it('holds the workspace libs inside main.js and only run-time packages beside it', () => {
    const bundle = readFileSync(mainJs(), 'utf8');
    expect(bundle).not.toMatch(/from ["']@agentdesk\//);
    expect(Object.keys(built.dependencies)).toEqual(
      expect.arrayContaining(['better-sqlite3', 'pg', 'fastify']),
    );
    const manifest = JSON.parse(readFileSync(join(built.outdir, 'package.json'), 'utf8')) as {
      type: string;
      dependencies: Record<string, string>;
    };
    expect(manifest).toMatchObject({ type: 'module', dependencies: built.dependencies });
    for (const buildTool of ['tsx', 'typescript', 'esbuild', 'vitest', 'nx', '@swc/core', 'next']) {
      expect(existsSync(join(built.outdir, 'node_modules', buildTool)), buildTool).toBe(false);
    }
    expect(
      existsSync(join(built.outdir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')),
    ).toBe(true);
  });

  it('serves sessions, an agent turn and the OpenAPI document of the sources with plain node on SQLite', async () => {
    let api: CompiledApiProcess | undefined;
    const sources = await startTestApi('sqlite');
    try {
      api = await startCompiledApi(
        mainJs(),
        folder,
        environment({ DATABASE_URL: `sqlite:${join(folder, 'compiled.db')}` }),
      );
      await expect(readJson(`${api.url}/readyz`)).resolves.toMatchObject({
        status: 'ready',
        database: 'sqlite',
      });
      await expectTurnAnswered(api.url, adminKey, emulator, 'compiled answer');
      // esbuild (like tsx) emits no decorator metadata, the tests' SWC does. Without it Nest lists a
      // path parameter after the query parameters of the same operation: the same document otherwise.
      const served = await readJson(`${api.url}/openapi.json`);
      const fromSources = (await sources.request({ method: 'GET', url: '/openapi.json' })).json() as unknown;
      expect(withSortedParameters(served)).toEqual(withSortedParameters(fromSources));
      const docsPage = await fetch(`${api.url}/docs`);
      expect(docsPage.status).toBe(200);
      expect(await docsPage.text()).toContain('swagger-ui');
    } finally {
      await api?.stop();
      await sources.close();
    }
  }, 300_000);

  it('runs on PostgreSQL (pg) as well', async () => {
    const database = await createOwnPostgresDatabase();
    let api: CompiledApiProcess | undefined;
    try {
      api = await startCompiledApi(mainJs(), folder, environment({ DATABASE_URL: database.url }));
      await expect(readJson(`${api.url}/readyz`)).resolves.toMatchObject({
        status: 'ready',
        database: 'postgres',
      });
      await expectTurnAnswered(api.url, adminKey, emulator, 'answered over postgres');
    } finally {
      await api?.stop();
      await database.drop();
    }
  });

  describe('apps/api/Dockerfile', () => {
    const dockerHost = inject('dockerHost');
    const tag = `agentdesk-api-test:${process.pid}`;
    const containerName = `agentdesk-api-test-${process.pid}`;

    afterAll(async () => {
      await docker(dockerHost, ['rm', '--force', containerName]).catch(() => undefined);
      await docker(dockerHost, ['rmi', '--force', tag]).catch(() => undefined);
    });

    it('builds FROM the offline base image, runs as a non-root user and answers /healthz, /readyz and its HEALTHCHECK', async () => {
      // The context holds only dist/apps/api (API_DIST=prebuilt): the build stage checks it is there
      // instead of running npm ci, which needs a registry the tests must not rely on.
      await docker(dockerHost, [
        'build',
        '--file',
        dockerfile,
        '--build-arg',
        `BASE_IMAGE=${apiTestBaseImage}`,
        '--build-arg',
        `BUILD_IMAGE=${apiTestBaseImage}`,
        '--build-arg',
        'API_DIST=prebuilt',
        '--tag',
        tag,
        folder,
      ]);
      const [image] = JSON.parse(await docker(dockerHost, ['image', 'inspect', tag])) as Array<{
        Config: { User: string; Healthcheck?: { Test: string[] }; Cmd: string[] };
      }>;
      expect(image!.Config.User).toBe('1000:1000');
      expect(image!.Config.Healthcheck?.Test.join(' ')).toContain('/readyz');
      expect(image!.Config.Cmd).toEqual(['node', 'main.js']);

      // The private engine has no bridge network: the container shares the host's, on a free port.
      const port = await freeLoopbackPort();
      const containerEnvironment = environment({ HOST: '127.0.0.1', PORT: String(port) });
      await docker(dockerHost, [
        'run',
        '--detach',
        '--name',
        containerName,
        '--network',
        'host',
        // The image's probe, checked every second instead of every 15 s, to keep the test short.
        '--health-interval',
        '1s',
        ...Object.entries(containerEnvironment).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
        tag,
      ]);
      const base = `http://127.0.0.1:${port}`;
      await expect(
        waitForJson(`${base}/healthz`, () => docker(dockerHost, ['logs', containerName])),
      ).resolves.toEqual({
        status: 'ok',
      });
      await expect(readJson(`${base}/readyz`)).resolves.toMatchObject({
        status: 'ready',
        database: 'sqlite',
      });
      await expectTurnAnswered(base, adminKey, emulator, 'answered from the container');
      expect((await docker(dockerHost, ['exec', containerName, 'id', '-u'])).trim()).toBe('1000');
      // Probes of `docker inspect` (each tens of ms): about a minute on a quiet machine.
      await waitFor(
        async () =>
          (
            await docker(dockerHost, ['inspect', '--format', '{{.State.Health.Status}}', containerName])
          ).trim() === 'healthy'
            ? true
            : undefined,
        'the container to report healthy',
        {
          attempts: 600,
          state: async () =>
            JSON.parse(
              await docker(dockerHost, ['inspect', '--format', '{{json .State.Health}}', containerName]),
            ) as unknown,
        },
      );
    }, 240_000);
  });
});

/** The OpenAPI document with each operation's parameters in one order (by location, then name). */
function withSortedParameters(document: unknown): unknown {
  const copy = structuredClone(document) as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
  };
  for (const operations of Object.values(copy.paths)) {
    for (const operation of Object.values(operations)) {
      operation.parameters?.sort((left, right) =>
        `${left.in} ${left.name}`.localeCompare(`${right.in} ${right.name}`),
      );
    }
  }
  return copy;
}

async function readJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/**
 * Polls `url` until it answers 2xx (the container is starting): 2400 probes, a minute on a quiet
 * machine; if never, says the last failure and what the container logged.
 */
async function waitForJson(url: string, logs: () => Promise<string>): Promise<unknown> {
  let lastFailure = 'none yet';
  return waitFor(
    async () => {
      try {
        return await readJson(url);
      } catch (error) {
        lastFailure = String(error);
        return undefined;
      }
    },
    `${url} to answer`,
    { attempts: 2400, state: async () => ({ lastFailure, containerOutput: await logs() }) },
  );
}

/** Creates a session with `key` and runs one JSON turn answered by the emulator with `answer`. */
async function expectTurnAnswered(
  base: string,
  key: string,
  emulator: ProviderEmulator,
  answer: string,
): Promise<void> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ label: 'production build', model: 'gpt-test' }),
  });
  expect(created.status).toBe(201);
  const session = (await created.json()) as { id: string };
  emulator.script({ kind: 'text', text: answer });
  const turn = await fetch(`${base}/v1/sessions/${session.id}/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: 'Hello from the production test' }),
  });
  expect(turn.status).toBe(200);
  await expect(turn.json()).resolves.toMatchObject({ status: 'complete', text: answer });
}
