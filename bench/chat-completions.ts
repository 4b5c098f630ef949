/**
 * `POST /v1/chat/completions` through AgentDesk vs the OpenAI SDK calling the provider emulator
 * directly vs the Portkey OSS gateway on the same emulator, side by side in one run:
 *
 *   npx tsx bench/chat-completions.ts          (or: npm run bench -- chat-completions)
 *
 * Processes: the emulator (`libs/provider-emulator`), the real API (`apps/api/src/main.ts`, SQLite,
 * `AGENTDESK_ADMIN_KEY`, providers pointed at the emulator) and the Portkey gateway each run in their
 * own process; this process is the client and sends the same body through three `openai` SDK clients:
 *   - direct:    SDK → emulator
 *   - agentdesk: SDK → AgentDesk `/v1/chat/completions` (admin key) → emulator
 *   - portkey:   SDK → Portkey `/v1/chat/completions` (`x-portkey-provider: openai`,
 *                `x-portkey-custom-host: <emulator>/v1`) → emulator
 *   - bare:      SDK → a bare Node pass-through proxy (`bench/support/bare-proxy.ts`: node:http + fetch)
 *                → emulator: the cost of one extra Node hop on this machine, the floor under any gateway
 *
 * Phases, each interleaved (variants take turns batch by batch, in alternating order, so drift in
 * machine load hits all alike), after a discarded warm-up:
 *   1. non-streaming latency, one request at a time: p50/p99, added over direct, gateway CPU per request;
 *   2. streaming, one at a time: time to the first content token (TTFT) and to the end of the stream;
 *   3. throughput: requests/s with BENCH_CONCURRENCY requests in flight.
 * Targets: AgentDesk adds ≤ 0.3 ms p50 and ≤ 1.5 ms p99 (non-streaming) and ≤ 1 ms TTFT; Portkey's
 * added latency ≥ 3× AgentDesk's.
 *
 * Options (environment): BENCH_ROUNDS (20), BENCH_BATCH (100), BENCH_STREAM_ROUNDS (10),
 * BENCH_CONCURRENCY (16), BENCH_THROUGHPUT_ROUNDS (4), BENCH_ROUND_MS (2000),
 * BENCH_PROFILE=1 (run both gateways under `node --cpu-prof` and print where their CPU time goes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { startApiProcess } from './support/api-process';
import { formatSummary, profileIn, summarizeProfile } from './support/cpu-profile';
import { startEmulatorProcess } from './support/emulator-process';
import { percentile } from './support/measure';
import { startPortkeyGateway } from './support/portkey-process';
import { processCpuMicroseconds, startServerProcess, type ServerProcess } from './support/server-process';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 20);
const batch = Number(process.env['BENCH_BATCH'] ?? 100);
const streamRounds = Number(process.env['BENCH_STREAM_ROUNDS'] ?? 10);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const throughputRounds = Number(process.env['BENCH_THROUGHPUT_ROUNDS'] ?? 4);
const roundMs = Number(process.env['BENCH_ROUND_MS'] ?? 2000);
const profiling = process.env['BENCH_PROFILE'] === '1';
const benchDirectory = dirname(fileURLToPath(import.meta.url));

const model = 'gpt-test';
const messages = [{ role: 'user' as const, content: 'Hello, how are you?' }];
const streamChunks = 20;
const streamText = 'abcdefghij'.repeat(streamChunks);

type VariantName = 'direct' | 'bare' | 'agentdesk' | 'portkey';

interface Variant {
  readonly name: VariantName;
  readonly label: string;
  readonly client: OpenAI;
  /** The gateway process between client and emulator (none for direct). */
  readonly gateway?: ServerProcess;
}

interface Samples {
  latencies: number[];
  ttft: number[];
  requests: number;
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

/** `concurrency` loops sending requests for `durationMs`; returns completed requests and their latencies. */
async function load(
  client: OpenAI,
  durationMs: number,
): Promise<{ completed: number; seconds: number; latencies: number[] }> {
  const started = performance.now();
  const end = started + durationMs;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const sent = performance.now();
        await once(client);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { completed: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : '—');
const signed = (value: number) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(3)}` : '—';

async function main(): Promise<void> {
  const profileDirectory = profiling ? mkdtempSync(join(tmpdir(), 'agentdesk-bench-prof-')) : undefined;
  const apiProfiles = profileDirectory && join(profileDirectory, 'api');
  const portkeyProfiles = profileDirectory && join(profileDirectory, 'portkey');
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
      apiProfiles ? { cpuProfileDirectory: apiProfiles } : {},
    );
    servers.push(api);
    const models = await fetch(`${api.url}/v1/models`, {
      headers: { authorization: `Bearer ${api.adminKey}` },
    });
    if (models.status !== 200)
      throw new Error(
        `GET /v1/models answered ${models.status}: the OpenAI-compatible endpoint is not available`,
      );
    const portkey = await startPortkeyGateway(
      portkeyProfiles ? { cpuProfileDirectory: portkeyProfiles } : {},
    );
    servers.push(portkey);
    const bare = await startServerProcess({
      name: 'bare proxy',
      cwd: benchDirectory,
      args: ['--import', 'tsx', join(benchDirectory, 'support/bare-proxy.ts')],
      env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', BARE_PROXY_UPSTREAM: emulator.url },
      ready: (output) => /listening on (http:\/\/[\d.:]+)/.exec(output)?.[1],
    });
    servers.push(bare);

    const variants: Variant[] = [
      {
        name: 'direct',
        label: 'SDK → emulator (direct)',
        client: new OpenAI({ apiKey: 'sk-emulator', baseURL: `${emulator.url}/v1`, maxRetries: 0 }),
      },
      {
        name: 'bare',
        label: 'SDK → bare Node proxy → emulator (floor)',
        client: new OpenAI({ apiKey: 'sk-emulator', baseURL: `${bare.url}/v1`, maxRetries: 0 }),
        gateway: bare,
      },
      {
        name: 'agentdesk',
        label: 'SDK → AgentDesk → emulator',
        client: new OpenAI({ apiKey: api.adminKey, baseURL: `${api.url}/v1`, maxRetries: 0 }),
        gateway: api,
      },
      {
        name: 'portkey',
        label: 'SDK → Portkey → emulator',
        client: new OpenAI({
          apiKey: 'sk-emulator',
          baseURL: `${portkey.url}/v1`,
          maxRetries: 0,
          defaultHeaders: { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${emulator.url}/v1` },
        }),
        gateway: portkey,
      },
    ];

    // The three paths must give the same answers before their speed means anything.
    const expectedOnce = await once(variants[0]!.client);
    for (const variant of variants) {
      const answer = await once(variant.client);
      if (answer !== expectedOnce)
        throw new Error(
          `${variant.label} answered ${JSON.stringify(answer)}, direct ${JSON.stringify(expectedOnce)}`,
        );
      const streamed = await streamOnce(variant.client);
      if (streamed.text !== streamText)
        throw new Error(`${variant.label} streamed ${JSON.stringify(streamed.text.slice(0, 80))}…`);
    }

    // 1. Non-streaming latency, one request at a time.
    const warm = new Map(variants.map((variant) => [variant.name, newSamples()]));
    await interleaved(variants, warm, 3, async (variant, into) => {
      const started = performance.now();
      await once(variant.client);
      into.latencies.push(performance.now() - started);
    });
    const sequential = new Map(variants.map((variant) => [variant.name, newSamples()]));
    await interleaved(variants, sequential, rounds, async (variant, into) => {
      const started = performance.now();
      await once(variant.client);
      into.latencies.push(performance.now() - started);
    });

    // 2. Streaming, one at a time: time to first token and to the end of the stream.
    await interleaved(
      variants,
      new Map(variants.map((variant) => [variant.name, newSamples()])),
      2,
      async (variant) => {
        await streamOnce(variant.client);
      },
    );
    const streaming = new Map(variants.map((variant) => [variant.name, newSamples()]));
    await interleaved(variants, streaming, streamRounds, async (variant, into) => {
      const started = performance.now();
      const { ttft } = await streamOnce(variant.client);
      into.ttft.push(ttft);
      into.latencies.push(performance.now() - started);
    });

    // 3. Throughput with `concurrency` requests in flight.
    const throughput = new Map(
      variants.map((variant) => [
        variant.name,
        { completed: 0, seconds: 0, latencies: [] as number[], gatewayCpuMicroseconds: 0 },
      ]),
    );
    for (const variant of variants) await load(variant.client, 500);
    for (let round = 0; round < throughputRounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        const cpuBefore = variant.gateway ? processCpuMicroseconds(variant.gateway.pid) : 0;
        const result = await load(variant.client, roundMs);
        const into = throughput.get(variant.name)!;
        into.completed += result.completed;
        into.seconds += result.seconds;
        into.latencies.push(...result.latencies);
        if (variant.gateway)
          into.gatewayCpuMicroseconds += processCpuMicroseconds(variant.gateway.pid) - cpuBefore;
      }
    }

    // Report.
    const direct = sequential.get('direct')!;
    const p = (values: number[], fraction: number) => percentile(values, fraction);
    const lines: string[] = [];
    lines.push(
      `Node ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ')} at the end; emulator, AgentDesk, Portkey and this client share the CPUs.`,
      '',
      `### Non-streaming, one request at a time (${rounds} interleaved rounds × ${batch} requests per variant)`,
      '',
      '| path | requests | p50 ms | p99 ms | added p50 ms | added p99 ms | gateway CPU µs/req |',
      '|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const variant of variants) {
      const samples = sequential.get(variant.name)!;
      const isDirect = variant.name === 'direct';
      lines.push(
        `| ${variant.label} | ${samples.requests} | ${ms(p(samples.latencies, 0.5))} | ${ms(p(samples.latencies, 0.99))} | ${isDirect ? '—' : signed(p(samples.latencies, 0.5) - p(direct.latencies, 0.5))} | ${isDirect ? '—' : signed(p(samples.latencies, 0.99) - p(direct.latencies, 0.99))} | ${variant.gateway ? (samples.gatewayCpuMicroseconds / samples.requests).toFixed(0) : '—'} |`,
      );
    }
    const streamDirect = streaming.get('direct')!;
    lines.push(
      '',
      `### Streaming (${streamChunks} content chunks), one at a time (${streamRounds} interleaved rounds × ${batch} streams per variant)`,
      '',
      '| path | streams | TTFT p50 ms | TTFT p99 ms | added TTFT p50 ms | added TTFT p99 ms | whole stream p50 ms | gateway CPU µs/stream |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const variant of variants) {
      const samples = streaming.get(variant.name)!;
      const isDirect = variant.name === 'direct';
      lines.push(
        `| ${variant.label} | ${samples.requests} | ${ms(p(samples.ttft, 0.5))} | ${ms(p(samples.ttft, 0.99))} | ${isDirect ? '—' : signed(p(samples.ttft, 0.5) - p(streamDirect.ttft, 0.5))} | ${isDirect ? '—' : signed(p(samples.ttft, 0.99) - p(streamDirect.ttft, 0.99))} | ${ms(p(samples.latencies, 0.5))} | ${variant.gateway ? (samples.gatewayCpuMicroseconds / samples.requests).toFixed(0) : '—'} |`,
      );
    }
    lines.push(
      '',
      `### Throughput, ${concurrency} requests in flight (${throughputRounds} interleaved rounds × ${roundMs} ms per variant)`,
      '',
      '| path | requests | requests/s | p50 ms | p99 ms | gateway CPU µs/req |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const variant of variants) {
      const result = throughput.get(variant.name)!;
      lines.push(
        `| ${variant.label} | ${result.completed} | ${(result.completed / result.seconds).toFixed(0)} | ${ms(p(result.latencies, 0.5))} | ${ms(p(result.latencies, 0.99))} | ${variant.gateway ? (result.gatewayCpuMicroseconds / result.completed).toFixed(0) : '—'} |`,
      );
    }

    const added = (name: VariantName, fraction: number) =>
      p(sequential.get(name)!.latencies, fraction) - p(direct.latencies, fraction);
    const addedTtft = (name: VariantName) => p(streaming.get(name)!.ttft, 0.5) - p(streamDirect.ttft, 0.5);
    const check = (met: boolean) => (met ? 'met' : '**missed**');
    const ratioP50 = added('portkey', 0.5) / added('agentdesk', 0.5);
    const ratioP99 = added('portkey', 0.99) / added('agentdesk', 0.99);
    const ratioTtft = addedTtft('portkey') / addedTtft('agentdesk');
    const ratio = (value: number) =>
      Number.isFinite(value) && value > 0 ? `${value.toFixed(1)}×` : '— (AgentDesk added ≤ 0)';
    lines.push(
      '',
      '### Targets',
      '',
      '| target | measured | |',
      '|---|---:|---|',
      `| AgentDesk added latency p50 ≤ 0.3 ms (non-streaming) | ${signed(added('agentdesk', 0.5))} ms | ${check(added('agentdesk', 0.5) <= 0.3)} |`,
      `| AgentDesk added latency p99 ≤ 1.5 ms (non-streaming) | ${signed(added('agentdesk', 0.99))} ms | ${check(added('agentdesk', 0.99) <= 1.5)} |`,
      `| AgentDesk added time-to-first-token p50 ≤ 1 ms (streaming) | ${signed(addedTtft('agentdesk'))} ms | ${check(addedTtft('agentdesk') <= 1)} |`,
      `| Portkey added p50 ≥ 3× AgentDesk's | ${ratio(ratioP50)} | ${check(!(ratioP50 < 3))} |`,
      `| Portkey added p99 ≥ 3× AgentDesk's | ${ratio(ratioP99)} | ${check(!(ratioP99 < 3))} |`,
      `| Portkey added TTFT p50 ≥ 3× AgentDesk's | ${ratio(ratioTtft)} | ${check(!(ratioTtft < 3))} |`,
    );
    lines.push(
      '',
      `Beyond one bare Node hop (the floor on this machine), AgentDesk adds ${signed(added('agentdesk', 0.5) - added('bare', 0.5))} ms p50 / ` +
        `${signed(added('agentdesk', 0.99) - added('bare', 0.99))} ms p99 and ${signed(addedTtft('agentdesk') - addedTtft('bare'))} ms TTFT p50; ` +
        `Portkey ${signed(added('portkey', 0.5) - added('bare', 0.5))} ms p50 / ${signed(added('portkey', 0.99) - added('bare', 0.99))} ms p99 and ` +
        `${signed(addedTtft('portkey') - addedTtft('bare'))} ms TTFT p50.`,
    );
    console.log(lines.join('\n'));
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await emulator.stop();
  }

  if (apiProfiles && portkeyProfiles) {
    for (const [title, directory] of [
      ['AgentDesk API process (whole run)', apiProfiles],
      ['Portkey gateway process (whole run)', portkeyProfiles],
    ] as const) {
      const file = profileIn(directory);
      // The API's profile starts at its first chat completion (its start-up compiles TypeScript).
      const summary =
        file && summarizeProfile(file, directory === apiProfiles ? { from: /^createChatCompletion / } : {});
      console.log(`\n${summary ? formatSummary(title, summary) : `#### ${title}\n\nno profile was written`}`);
    }
    if (process.env['BENCH_KEEP_PROFILES'] !== '1')
      rmSync(profileDirectory!, { recursive: true, force: true });
    else console.log(`\nprofiles kept in ${profileDirectory}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
