/**
 * `POST /v1/chat/completions` through AgentDesk beside the OpenAI SDK calling the provider emulator
 * directly, two bare pass-throughs (the floors) and the Portkey OSS gateway, all on the same emulator,
 * side by side in one run:
 *
 *   npx tsx bench/chat-completions.ts          (or: npm run bench -- chat-completions)
 *
 * Processes: the emulator (`libs/provider-emulator`), the real API (`apps/api/src/main.ts`, SQLite,
 * `AGENTDESK_ADMIN_KEY`, providers pointed at the emulator), the Portkey gateway and the two floors
 * each run in their own process; this process is the client:
 *   - direct:    SDK → emulator
 *   - bare:      SDK → `node:http` + global `fetch` pass-through (`bench/support/bare-proxy.ts`) → emulator
 *   - floor:     SDK → Fastify + one undici pool pass-through (`bench/support/fastify-floor.ts`) → emulator:
 *                the least a gateway on AgentDesk's server framework can cost
 *   - sdkFloor:  SDK → Fastify + the official `openai` SDK on AgentDesk's pooled fetch (`bench/support/
 *                fastify-sdk-floor.ts`) → emulator: the least a gateway that keeps the official SDK can
 *                cost (JSON in, one SDK call, JSON or SSE out; no auth, validation or metering)
 *   - agentdesk: SDK → AgentDesk `/v1/chat/completions` (admin key) → emulator
 *   - portkey:   SDK → Portkey `/v1/chat/completions` (`x-portkey-provider: openai`,
 *                `x-portkey-custom-host: <emulator>/v1`) → emulator
 *
 * Phases, each interleaved (variants take turns batch by batch, in alternating order, so drift in
 * machine load hits all alike), after a discarded warm-up:
 *   1. non-streaming latency, one request at a time (SDK client): p50/p99, added over direct, gateway CPU;
 *   2. streaming, one at a time (SDK client): time to the first content token (TTFT) and to the end;
 *   3. throughput: BENCH_CONNECTIONS keep-alive connections (autocannon, one request in flight each),
 *      non-streaming: requests/s, latency under load, gateway CPU per request.
 * Targets (issue 11): AgentDesk ≥ 5,000 requests/s at 50 connections, ≥ 5× Portkey's and ≥ 50 % of the
 * Fastify + undici floor's; added latency p50 ≤ 0.5 ms and p99 ≤ 2 ms; added TTFT p50 ≤ 1 ms.
 *
 * Options (environment): BENCH_ROUNDS (10), BENCH_BATCH (100), BENCH_STREAM_ROUNDS (6),
 * BENCH_CONNECTIONS (50), BENCH_THROUGHPUT_ROUNDS (3), BENCH_ROUND_MS (3000),
 * BENCH_PROFILE=1 (run the API, the floor and Portkey under `node --cpu-prof` and print where their
 * CPU time goes), BENCH_KEEP_PROFILES=1, BENCH_BASELINE_TREE (a checkout of earlier code, its
 * node_modules linked: its API joins the same rounds as one more variant).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { startApiProcess } from './support/api-process';
import { formatSummary, profileIn, summarizeProfile } from './support/cpu-profile';
import { startEmulatorProcess } from './support/emulator-process';
import { constantLoad } from './support/http-load';
import { percentile } from './support/measure';
import { startPortkeyGateway } from './support/portkey-process';
import { processCpuMicroseconds, startServerProcess, type ServerProcess } from './support/server-process';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 10);
const batch = Number(process.env['BENCH_BATCH'] ?? 100);
const streamRounds = Number(process.env['BENCH_STREAM_ROUNDS'] ?? 6);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const throughputRounds = Number(process.env['BENCH_THROUGHPUT_ROUNDS'] ?? 3);
const roundMs = Number(process.env['BENCH_ROUND_MS'] ?? 3000);
const profiling = process.env['BENCH_PROFILE'] === '1';
const baselineTree = process.env['BENCH_BASELINE_TREE'];
const benchDirectory = dirname(fileURLToPath(import.meta.url));

const model = 'gpt-test';
const messages = [{ role: 'user' as const, content: 'Hello, how are you?' }];
const loadBody = JSON.stringify({ model, messages, max_tokens: 64 });
const streamChunks = 20;
const streamText = 'abcdefghij'.repeat(streamChunks);

type VariantName = 'direct' | 'bare' | 'floor' | 'sdkFloor' | 'agentdesk' | 'agentdeskBefore' | 'portkey';

interface Variant {
  readonly name: VariantName;
  readonly label: string;
  readonly client: OpenAI;
  /** `<base URL>/chat/completions` and the headers the SDK client sends, for the load generator. */
  readonly completionsUrl: string;
  readonly headers: Record<string, string>;
  /** The gateway process between client and emulator (none for direct). */
  readonly gateway?: ServerProcess;
}

interface Samples {
  latencies: number[];
  ttft: number[];
  requests: number;
  gatewayCpuMicroseconds: number;
}

interface Throughput {
  ok: number;
  failed: number;
  seconds: number;
  p50s: number[];
  p99s: number[];
  gatewayCpuMicroseconds: number;
}

const newSamples = (): Samples => ({ latencies: [], ttft: [], requests: 0, gatewayCpuMicroseconds: 0 });

async function once(client: OpenAI): Promise<string> {
  const completion = await client.chat.completions.create({ model, messages, max_tokens: 64 });
  return completion.choices[0]?.message.content ?? '';
}

/** Streams one answer; returns the time to its first content token and the text. */
async function streamOnce(client: OpenAI): Promise<{ ttft: number; text: string }> {
  const started = performance.now();
  const stream = await client.chat.completions.create({ model, messages, max_tokens: 256, stream: true });
  let ttft = Number.NaN;
  let text = '';
  for await (const chunk of stream) {
    const content = chunk.choices[0]?.delta?.content;
    if (content) {
      if (Number.isNaN(ttft)) ttft = performance.now() - started;
      text += content;
    }
  }
  return { ttft, text };
}

/** Sequential batches, variant after variant (order alternating per round), with the gateway's CPU per batch. */
async function interleaved(
  variants: readonly Variant[],
  samples: Map<VariantName, Samples>,
  roundCount: number,
  call: (variant: Variant, into: Samples) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < roundCount; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const into = samples.get(variant.name)!;
      const cpuBefore = variant.gateway ? processCpuMicroseconds(variant.gateway.pid) : 0;
      for (let index = 0; index < batch; index++) await call(variant, into);
      if (variant.gateway)
        into.gatewayCpuMicroseconds += processCpuMicroseconds(variant.gateway.pid) - cpuBefore;
      into.requests += batch;
    }
  }
}

/** Constant load on every variant in turn (order alternating per round), with the gateway's CPU. */
async function throughputRuns(
  variants: readonly Variant[],
  roundCount: number,
  durationMs: number,
): Promise<Map<VariantName, Throughput>> {
  const results = new Map<VariantName, Throughput>(
    variants.map((variant) => [
      variant.name,
      { ok: 0, failed: 0, seconds: 0, p50s: [], p99s: [], gatewayCpuMicroseconds: 0 },
    ]),
  );
  for (let round = 0; round < roundCount; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const cpuBefore = variant.gateway ? processCpuMicroseconds(variant.gateway.pid) : 0;
      const run = await constantLoad(
        variant.completionsUrl,
        variant.headers,
        loadBody,
        connections,
        durationMs,
      );
      const into = results.get(variant.name)!;
      into.ok += run.ok;
      into.failed += run.failed;
      into.seconds += run.seconds;
      into.p50s.push(run.p50Ms);
      into.p99s.push(run.p99Ms);
      if (variant.gateway)
        into.gatewayCpuMicroseconds += processCpuMicroseconds(variant.gateway.pid) - cpuBefore;
    }
  }
  return results;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : '—');
const signed = (value: number) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(3)}` : '—';
const median = (values: readonly number[]) => percentile(values, 0.5);

function startPassThrough(
  name: string,
  script: string,
  upstreamVariable: string,
  upstream: string,
  profileDirectory?: string,
) {
  return startServerProcess({
    name,
    cwd: benchDirectory,
    args: [
      ...(profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : []),
      '--import',
      'tsx',
      join(benchDirectory, 'support', script),
    ],
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', [upstreamVariable]: upstream },
    ready: (output) => /listening on (http:\/\/[\d.:]+)/.exec(output)?.[1],
  });
}

async function main(): Promise<void> {
  const profileDirectory = profiling ? mkdtempSync(join(tmpdir(), 'agentdesk-bench-prof-')) : undefined;
  const profiles =
    profileDirectory === undefined
      ? undefined
      : {
          api: join(profileDirectory, 'api'),
          floor: join(profileDirectory, 'floor'),
          sdkFloor: join(profileDirectory, 'sdk-floor'),
          portkey: join(profileDirectory, 'portkey'),
        };
  const emulator = await startEmulatorProcess();
  const servers: ServerProcess[] = [];
  try {
    await emulator.script([
      {
        kind: 'text',
        text: streamText,
        chunkSize: streamText.length / streamChunks,
        times: 'always',
        match: { stream: true },
      },
    ]);
    const api = await startApiProcess(
      {
        OPENAI_API_KEY: 'sk-emulator',
        OPENAI_BASE_URL: `${emulator.url}/v1`,
        AGENTDESK_DEFAULT_MODEL: model,
      },
      profiles ? { cpuProfileDirectory: profiles.api } : {},
    );
    servers.push(api);
    // BENCH_BASELINE_TREE: the same API from a checkout of earlier code, measured in the same rounds.
    const baseline =
      baselineTree === undefined
        ? undefined
        : await startApiProcess(
            {
              OPENAI_API_KEY: 'sk-emulator',
              OPENAI_BASE_URL: `${emulator.url}/v1`,
              AGENTDESK_DEFAULT_MODEL: model,
            },
            { tree: baselineTree },
          );
    if (baseline) servers.push(baseline);
    const models = await fetch(`${api.url}/v1/models`, {
      headers: { authorization: `Bearer ${api.adminKey}` },
    });
    if (models.status !== 200)
      throw new Error(
        `GET /v1/models answered ${models.status}: the OpenAI-compatible endpoint is not available`,
      );
    const portkey = await startPortkeyGateway(profiles ? { cpuProfileDirectory: profiles.portkey } : {});
    servers.push(portkey);
    const bare = await startPassThrough('bare proxy', 'bare-proxy.ts', 'BARE_PROXY_UPSTREAM', emulator.url);
    servers.push(bare);
    const floor = await startPassThrough(
      'fastify floor',
      'fastify-floor.ts',
      'FLOOR_UPSTREAM',
      emulator.url,
      profiles?.floor,
    );
    servers.push(floor);
    const sdkFloor = await startPassThrough(
      'sdk floor',
      'fastify-sdk-floor.ts',
      'SDK_FLOOR_UPSTREAM',
      emulator.url,
      profiles?.sdkFloor,
    );
    servers.push(sdkFloor);

    const variant = (
      name: VariantName,
      label: string,
      baseUrl: string,
      apiKey: string,
      gateway?: ServerProcess,
      extraHeaders: Record<string, string> = {},
    ): Variant => ({
      name,
      label,
      client: new OpenAI({ apiKey, baseURL: `${baseUrl}/v1`, maxRetries: 0, defaultHeaders: extraHeaders }),
      completionsUrl: `${baseUrl}/v1/chat/completions`,
      headers: { authorization: `Bearer ${apiKey}`, ...extraHeaders },
      ...(gateway && { gateway }),
    });
    const variants: Variant[] = [
      variant('direct', 'SDK → emulator (direct)', emulator.url, 'sk-emulator'),
      variant('bare', 'SDK → node:http + fetch proxy → emulator', bare.url, 'sk-emulator', bare),
      variant('floor', 'SDK → Fastify + undici pool → emulator (floor)', floor.url, 'sk-emulator', floor),
      variant(
        'sdkFloor',
        'SDK → Fastify + openai SDK → emulator (SDK floor)',
        sdkFloor.url,
        'sk-emulator',
        sdkFloor,
      ),
      variant('agentdesk', 'SDK → AgentDesk → emulator', api.url, api.adminKey, api),
      ...(baseline
        ? [
            variant(
              'agentdeskBefore',
              'SDK → AgentDesk before (BENCH_BASELINE_TREE) → emulator',
              baseline.url,
              baseline.adminKey,
              baseline,
            ),
          ]
        : []),
      variant('portkey', 'SDK → Portkey → emulator', portkey.url, 'sk-emulator', portkey, {
        'x-portkey-provider': 'openai',
        'x-portkey-custom-host': `${emulator.url}/v1`,
      }),
    ];

    // Every path must give the same answers before its speed means anything.
    const expectedOnce = await once(variants[0]!.client);
    for (const candidate of variants) {
      const answer = await once(candidate.client);
      if (answer !== expectedOnce)
        throw new Error(
          `${candidate.label} answered ${JSON.stringify(answer)}, direct ${JSON.stringify(expectedOnce)}`,
        );
      const streamed = await streamOnce(candidate.client);
      if (streamed.text !== streamText)
        throw new Error(`${candidate.label} streamed ${JSON.stringify(streamed.text.slice(0, 80))}…`);
      const probe = await constantLoad(candidate.completionsUrl, candidate.headers, loadBody, 2, 200);
      if (probe.failed > 0 || probe.ok === 0)
        throw new Error(
          `${candidate.label}: the load generator's requests failed (${probe.failed} of ${probe.ok + probe.failed})`,
        );
    }

    // 1. Non-streaming latency, one request at a time.
    const timedOnce = async (candidate: Variant, into: Samples) => {
      const started = performance.now();
      await once(candidate.client);
      into.latencies.push(performance.now() - started);
    };
    await interleaved(variants, new Map(variants.map((each) => [each.name, newSamples()])), 2, timedOnce);
    const sequential = new Map(variants.map((each) => [each.name, newSamples()]));
    await interleaved(variants, sequential, rounds, timedOnce);

    // 2. Streaming, one at a time: time to first token and to the end of the stream.
    await interleaved(
      variants,
      new Map(variants.map((each) => [each.name, newSamples()])),
      1,
      async (candidate) => {
        await streamOnce(candidate.client);
      },
    );
    const streaming = new Map(variants.map((each) => [each.name, newSamples()]));
    await interleaved(variants, streaming, streamRounds, async (candidate, into) => {
      const started = performance.now();
      const { ttft } = await streamOnce(candidate.client);
      into.ttft.push(ttft);
      into.latencies.push(performance.now() - started);
    });

    // 3. Throughput with `connections` connections, one request in flight on each.
    await throughputRuns(variants, 1, 1000);
    const throughput = await throughputRuns(variants, throughputRounds, roundMs);

    console.log(report(variants, sequential, streaming, throughput));
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await emulator.stop();
  }

  if (profiles) {
    for (const [title, directory] of [
      ['AgentDesk API process (whole run)', profiles.api],
      ['Fastify + undici floor process (whole run)', profiles.floor],
      ['Fastify + openai SDK floor process (whole run)', profiles.sdkFloor],
      ['Portkey gateway process (whole run)', profiles.portkey],
    ] as const) {
      const file = profileIn(directory);
      // The API's profile starts at its first chat completion (its start-up compiles TypeScript).
      const summary =
        file && summarizeProfile(file, directory === profiles.api ? { from: /^createChatCompletion / } : {});
      console.log(`\n${summary ? formatSummary(title, summary) : `#### ${title}\n\nno profile was written`}`);
    }
    if (process.env['BENCH_KEEP_PROFILES'] !== '1')
      rmSync(profileDirectory!, { recursive: true, force: true });
    else console.log(`\nprofiles kept in ${profileDirectory}`);
  }
}

function report(
  variants: readonly Variant[],
  sequential: Map<VariantName, Samples>,
  streaming: Map<VariantName, Samples>,
  throughput: Map<VariantName, Throughput>,
): string {
  const direct = sequential.get('direct')!;
  const streamDirect = streaming.get('direct')!;
  const p = (values: number[], fraction: number) => percentile(values, fraction);
  const cpuPer = (candidate: Variant, cpu: number, count: number) =>
    candidate.gateway ? (cpu / count).toFixed(0) : '—';
  const lines: string[] = [
    `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')} at the end; the emulator, the gateways and this client share the CPUs.`,
    '',
    `#### Throughput, non-streaming, ${connections} connections (autocannon; ${throughputRounds} interleaved rounds × ${roundMs} ms per variant)`,
    '',
    '| path | requests | failed | requests/s | p50 ms | p99 ms | gateway CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const rate = (name: VariantName) => {
    const result = throughput.get(name)!;
    return result.ok / result.seconds;
  };
  for (const candidate of variants) {
    const result = throughput.get(candidate.name)!;
    lines.push(
      `| ${candidate.label} | ${result.ok} | ${result.failed} | ${rate(candidate.name).toFixed(0)} | ${median(result.p50s).toFixed(1)} | ${median(result.p99s).toFixed(1)} | ${cpuPer(candidate, result.gatewayCpuMicroseconds, result.ok)} |`,
    );
  }
  lines.push(
    '',
    `Latencies under load are the median over rounds of each round's p50 / p99 (autocannon reports whole milliseconds).`,
    '',
    `#### Non-streaming, one request at a time (${rounds} interleaved rounds × ${batch} requests per variant)`,
    '',
    '| path | requests | p50 ms | p99 ms | added p50 ms | added p99 ms | gateway CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const candidate of variants) {
    const samples = sequential.get(candidate.name)!;
    const isDirect = candidate.name === 'direct';
    lines.push(
      `| ${candidate.label} | ${samples.requests} | ${ms(p(samples.latencies, 0.5))} | ${ms(p(samples.latencies, 0.99))} | ${isDirect ? '—' : signed(p(samples.latencies, 0.5) - p(direct.latencies, 0.5))} | ${isDirect ? '—' : signed(p(samples.latencies, 0.99) - p(direct.latencies, 0.99))} | ${cpuPer(candidate, samples.gatewayCpuMicroseconds, samples.requests)} |`,
    );
  }
  lines.push(
    '',
    `#### Streaming (${streamChunks} content chunks), one at a time (${streamRounds} interleaved rounds × ${batch} streams per variant)`,
    '',
    '| path | streams | TTFT p50 ms | TTFT p99 ms | added TTFT p50 ms | added TTFT p99 ms | whole stream p50 ms | gateway CPU µs/stream |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const candidate of variants) {
    const samples = streaming.get(candidate.name)!;
    const isDirect = candidate.name === 'direct';
    lines.push(
      `| ${candidate.label} | ${samples.requests} | ${ms(p(samples.ttft, 0.5))} | ${ms(p(samples.ttft, 0.99))} | ${isDirect ? '—' : signed(p(samples.ttft, 0.5) - p(streamDirect.ttft, 0.5))} | ${isDirect ? '—' : signed(p(samples.ttft, 0.99) - p(streamDirect.ttft, 0.99))} | ${ms(p(samples.latencies, 0.5))} | ${cpuPer(candidate, samples.gatewayCpuMicroseconds, samples.requests)} |`,
    );
  }

  const added = (name: VariantName, fraction: number) =>
    p(sequential.get(name)!.latencies, fraction) - p(direct.latencies, fraction);
  const addedTtft = (name: VariantName) => p(streaming.get(name)!.ttft, 0.5) - p(streamDirect.ttft, 0.5);
  const check = (met: boolean) => (met ? 'met' : '**missed**');
  const ours = rate('agentdesk');
  const overPortkey = ours / rate('portkey');
  const ofFloor = ours / rate('floor');
  lines.push(
    '',
    '#### Targets',
    '',
    '| target | measured | |',
    '|---|---:|---|',
    `| AgentDesk ≥ 5,000 requests/s at ${connections} connections | ${ours.toFixed(0)} | ${check(ours >= 5000)} |`,
    `| AgentDesk ≥ 5× Portkey's requests/s | ${overPortkey.toFixed(1)}× | ${check(overPortkey >= 5)} |`,
    `| AgentDesk ≥ 50 % of the Fastify + undici floor's requests/s | ${(ofFloor * 100).toFixed(0)} % | ${check(ofFloor >= 0.5)} |`,
    `| AgentDesk added latency p50 ≤ 0.5 ms (sequential) | ${signed(added('agentdesk', 0.5))} ms | ${check(added('agentdesk', 0.5) <= 0.5)} |`,
    `| AgentDesk added latency p99 ≤ 2 ms (sequential) | ${signed(added('agentdesk', 0.99))} ms | ${check(added('agentdesk', 0.99) <= 2)} |`,
    `| AgentDesk added time-to-first-token p50 ≤ 1 ms | ${signed(addedTtft('agentdesk'))} ms | ${check(addedTtft('agentdesk') <= 1)} |`,
    '',
    `Beyond the Fastify + undici floor, AgentDesk adds ${signed(added('agentdesk', 0.5) - added('floor', 0.5))} ms p50 / ` +
      `${signed(added('agentdesk', 0.99) - added('floor', 0.99))} ms p99 and ${signed(addedTtft('agentdesk') - addedTtft('floor'))} ms TTFT p50; ` +
      `Portkey ${signed(added('portkey', 0.5) - added('floor', 0.5))} ms p50 / ${signed(added('portkey', 0.99) - added('floor', 0.99))} ms p99 and ` +
      `${signed(addedTtft('portkey') - addedTtft('floor'))} ms TTFT p50.`,
    '',
    // Can any gateway that keeps the official SDK meet the targets here? The SDK floor answers it.
    `The SDK floor (Fastify + the openai SDK, none of AgentDesk's own work) against the same targets: ` +
      `${rate('sdkFloor').toFixed(0)} requests/s, ${(rate('sdkFloor') / rate('portkey')).toFixed(1)}× Portkey, ` +
      `${((rate('sdkFloor') / rate('floor')) * 100).toFixed(0)} % of the floor; added p50 ${signed(added('sdkFloor', 0.5))} ms, ` +
      `p99 ${signed(added('sdkFloor', 0.99))} ms, TTFT p50 ${signed(addedTtft('sdkFloor'))} ms. ` +
      `AgentDesk serves ${((ours / rate('sdkFloor')) * 100).toFixed(0)} % of the SDK floor's requests/s and adds ` +
      `${signed(added('agentdesk', 0.5) - added('sdkFloor', 0.5))} ms p50 beyond it.`,
  );
  return lines.join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
