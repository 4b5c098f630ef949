/**
 * executeChatCompletion vs the raw SDK call, same emulator (in its own process), interleaved in one run,
 * non-streaming and streaming, for the three providers. Target: ≤ 1.1× the raw call's CPU per request.
 *
 * Run: npm run bench -- providers   (or: npx tsx bench/providers.ts)
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenerativeAI } from '@google/generative-ai';
import OpenAI from 'openai';
import { executeChatCompletion, type ProviderName, type SupportedClient } from '@agentdesk/providers';
import { startEmulatorProcess } from './support/emulator-process';
import { interleave, medianCpuRatio, newStats, percentile, resetStats } from './support/measure';
import { recordChunks, replay, replayingClients } from './support/recorded-streams';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 20);
const batch = Number(process.env['BENCH_BATCH'] ?? 50);
const streamChunks = 100;
const streamText = 'abcdefghij'.repeat(streamChunks);

async function drain(iterable: AsyncIterable<unknown>): Promise<void> {
  for await (const _part of iterable) {
    // consume every chunk, as a caller relaying the stream would
  }
}

async function main(): Promise<void> {
  const emulator = await startEmulatorProcess();
  await emulator.script([
    { kind: 'text', text: streamText, chunkSize: 10, times: 'always', match: { stream: true } },
  ]);
  const model = { openai: 'gpt-bench', anthropic: 'claude-bench', gemini: 'gemini-bench' } satisfies Record<
    ProviderName,
    string
  >;
  const openai = new OpenAI({ apiKey: 'k', baseURL: `${emulator.url}/v1`, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: 'k', baseURL: emulator.url, maxRetries: 0 });
  const gemini = new GoogleGenerativeAI('k').getGenerativeModel(
    { model: model.gemini },
    { baseUrl: emulator.url, apiVersion: 'v1beta' },
  );
  const messages = [{ role: 'user' as const, content: 'Hello, how are you?' }];

  const raw: Record<ProviderName, { once: () => Promise<unknown>; stream: () => Promise<unknown> }> = {
    openai: {
      once: () => openai.chat.completions.create({ model: model.openai, messages, max_tokens: 256 }),
      stream: async () =>
        drain(
          await openai.chat.completions.create({
            model: model.openai,
            messages,
            max_tokens: 256,
            stream: true,
            stream_options: { include_usage: true },
          }),
        ),
    },
    anthropic: {
      once: () => anthropic.messages.create({ model: model.anthropic, max_tokens: 256, messages }),
      stream: async () =>
        drain(
          await anthropic.messages.create({
            model: model.anthropic,
            max_tokens: 256,
            messages,
            stream: true,
          }),
        ),
    },
    gemini: {
      once: () =>
        gemini.generateContent({
          contents: [{ role: 'user', parts: [{ text: messages[0]!.content }] }],
          generationConfig: { maxOutputTokens: 256 },
        }),
      stream: async () =>
        drain(
          (
            await gemini.generateContentStream({
              contents: [{ role: 'user', parts: [{ text: messages[0]!.content }] }],
              generationConfig: { maxOutputTokens: 256 },
            })
          ).stream,
        ),
    },
  };
  const clients: Record<ProviderName, SupportedClient> = { openai, anthropic, gemini };
  const ours = (provider: ProviderName) => ({
    once: () =>
      executeChatCompletion(clients[provider], {
        modelParams: { model: model[provider], maxTokens: 256 },
        messages,
      }),
    stream: () =>
      drain(
        executeChatCompletion(clients[provider], {
          modelParams: { model: model[provider], maxTokens: 256 },
          messages,
          stream: true,
        }),
      ),
  });

  const rows: string[] = [];
  for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
    for (const mode of ['once', 'stream'] as const) {
      const rawStats = newStats('raw SDK');
      const oursStats = newStats('executeChatCompletion');
      const variants = [
        { stats: rawStats, call: raw[provider][mode] },
        { stats: oursStats, call: ours(provider)[mode] },
      ];
      await interleave(variants, 4, 100); // warm-up (JIT, connection pools), discarded
      resetStats(rawStats);
      resetStats(oursStats);
      await interleave(variants, rounds, batch);
      const rawCpu = percentile(rawStats.batchCpuPerRequest, 0.5);
      const ratio = medianCpuRatio(oursStats, rawStats);
      const oursCpu = rawCpu * ratio;
      const perChunk =
        mode === 'stream' ? `${(((oursCpu - rawCpu) / streamChunks) * 1000).toFixed(0)} ns` : '—';
      rows.push(
        `| ${provider} | ${mode === 'once' ? 'non-streaming' : `streaming (${streamChunks} chunks)`} | ${rawCpu.toFixed(0)} | ${oursCpu.toFixed(0)} | ${ratio.toFixed(3)}× | ${percentile(rawStats.latenciesMs, 0.5).toFixed(3)} | ${percentile(oursStats.latenciesMs, 0.5).toFixed(3)} | ${perChunk} |`,
      );
    }
  }
  // Per-chunk cost without the network: recorded chunks replayed in memory, through a plain loop
  // and through executeChatCompletion (duck-typed replaying clients). Far less noisy than the
  // end-to-end streams above, where the emulator shares the two cores.
  const recorded = await recordChunks({ openai, anthropic, gemini }, model);
  const replaying = replayingClients(recorded);
  const chunkRows: string[] = [];
  for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
    const chunks = recorded[provider].length;
    const plain = newStats('plain loop');
    const through = newStats('executeChatCompletion');
    const variants = [
      { stats: plain, call: () => drain(replay(recorded[provider])) },
      {
        stats: through,
        call: () =>
          drain(
            executeChatCompletion(replaying[provider], {
              modelParams: { model: model[provider] },
              messages,
              stream: true,
            }),
          ),
      },
    ];
    await interleave(variants, 4, 500);
    resetStats(plain);
    resetStats(through);
    await interleave(variants, rounds, 500);
    const plainPerChunk = (percentile(plain.batchCpuPerRequest, 0.5) / chunks) * 1000;
    const throughPerChunk = (percentile(through.batchCpuPerRequest, 0.5) / chunks) * 1000;
    chunkRows.push(
      `| ${provider} | ${chunks} | ${plainPerChunk.toFixed(0)} | ${throughPerChunk.toFixed(0)} | ${(throughPerChunk - plainPerChunk).toFixed(0)} |`,
    );
  }
  await emulator.stop();
  console.log(
    `${rounds} interleaved rounds × ${batch} sequential requests per variant, after a discarded warm-up.\n` +
      'CPU: median batch of the raw call; ratio: median over rounds of ours/raw in the same round.\n',
  );
  console.log(
    '| provider | mode | raw CPU µs/req | ours CPU µs/req | ratio (target ≤ 1.1×) | raw p50 ms | ours p50 ms | added CPU per chunk |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(
    '\nPer-chunk cost without the network (recorded chunks replayed in memory; includes the request building of each call):\n',
  );
  console.log(
    '| provider | chunks per stream | plain loop ns/chunk | executeChatCompletion ns/chunk | added ns/chunk |',
  );
  console.log('|---|---|---|---|---|');
  for (const row of chunkRows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
