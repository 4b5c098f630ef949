/**
 * libs/sandbox on a real engine: ensure when current, session sandbox ready (warm pool vs cold
 * create + start), and commands through the in-container runner against a Docker exec per command
 * on the same engine, side by side: `true` in a warm session, a new session's first command from
 * the warm pool, 16 sessions × 50 commands at once, and output throughput up to the cap.
 *
 *   npm run bench -- sandbox            # print the table
 *   npx tsx bench/sandbox.ts --write    # also refresh docs/benchmarks/sandbox.md
 *
 * Starts a private engine in a temp folder (as the tests do) and removes it at the end.
 * Environment: BENCH_RUNS (default 200 for ensure / exec), BENCH_SANDBOX_RUNS (default 40).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import {
  buildOfflineBaseImage,
  EngineClient,
  SandboxService,
  silentLogger,
  startPrivateEngine,
  type SandboxConfigInput,
} from '@agentdesk/sandbox';
import { percentile } from './support/measure';

const runs = Number(process.env['BENCH_RUNS'] ?? 200);
const sandboxRuns = Number(process.env['BENCH_SANDBOX_RUNS'] ?? 40);
const documentPath = 'docs/benchmarks/sandbox.md';
const writeDocument = process.argv.includes('--write');
const run = promisify(execFile);
/** Output per throughput sample; also the services' output cap, so it is kept whole. */
const throughputBytes = 32 * 1024 * 1024;

interface Row {
  readonly name: string;
  readonly samples: number[];
  readonly target?: string;
}

async function time(samples: number[], call: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await call();
  samples.push(performance.now() - started);
}

function format(rows: readonly Row[]): string {
  const lines = [
    '| measurement | runs | p50 ms | p99 ms | mean ms | target |',
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const mean = row.samples.reduce((sum, value) => sum + value, 0) / row.samples.length;
    lines.push(
      `| ${row.name} | ${row.samples.length} | ${percentile(row.samples, 0.5).toFixed(2)} | ${percentile(row.samples, 0.99).toFixed(2)} | ${mean.toFixed(2)} | ${row.target ?? ''} |`,
    );
  }
  return lines.join('\n');
}

function formatRates(rows: readonly { name: string; rates: number[]; target: string }[]): string {
  const lines = ['| measurement | runs | p50 MB/s | min MB/s | target |', '|---|---:|---:|---:|---|'];
  for (const row of rows) {
    lines.push(
      `| ${row.name} | ${row.rates.length} | ${percentile(row.rates, 0.5).toFixed(1)} | ${Math.min(...row.rates).toFixed(1)} | ${row.target} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const engine = await startPrivateEngine({
    directory: mkdtempSync('/tmp/agentdesk-bench-'),
    log: () => undefined,
  });
  try {
    const baseImage = 'agentdesk-bench-base:local';
    await buildOfflineBaseImage(engine.engine, { reference: baseImage });
    const config = (name: string, warmPoolSize: number, useRunner = true): SandboxConfigInput => ({
      tag: 'agentdesk-bench:latest',
      baseImage,
      agentdeskVersion: 'bench',
      ownerId: `bench-${name}`,
      warmPoolSize,
      reaperIntervalMs: 0,
      // Room for the throughput rows; the memory covers 16 sessions' runners and outputs.
      exec: { maxOutputBytes: throughputBytes, useRunner },
      limits: { memoryBytes: 512 * 1024 * 1024 },
    });
    const options = { engine: new EngineClient({ dockerHost: engine.dockerHost }), logger: silentLogger };
    const pooled = new SandboxService(config('pool', 1), options);
    const cold = new SandboxService(config('cold', 0), options);
    const execPooled = new SandboxService(config('exec-pool', 1, false), options);
    await pooled.start();
    await execPooled.start();

    // 1. ensure when the image is current (inspect tag + both pins + base).
    const ensure: number[] = [];
    for (let index = 0; index < 20; index++) await pooled.ensureSandboxImage();
    for (let index = 0; index < runs; index++) await time(ensure, () => pooled.ensureSandboxImage());

    // 2. session sandbox ready: a pooled container (rename) vs create + start, interleaved.
    const fromPool: number[] = [];
    const coldStart: number[] = [];
    for (let index = 0; index < sandboxRuns; index++) {
      await pooled.fillWarmPool();
      await time(fromPool, () => pooled.acquireContainer(`pool-${index}`));
      await time(coldStart, () => cold.acquireContainer(`cold-${index}`));
      await Promise.all([pooled.removeSession(`pool-${index}`), cold.removeSession(`cold-${index}`)]);
    }

    // 3. `true` round trip in one session's container: the runner, the exec path of the same
    // service API, dockerode's bare exec and the CLI, interleaved.
    const sandbox = pooled.forSession('exec');
    const execSandbox = execPooled.forSession('exec');
    const containerId = await pooled.acquireContainer('exec');
    const ours: number[] = [];
    const oursExec: number[] = [];
    const bare: number[] = [];
    const cli: number[] = [];
    const bareExec = async () => {
      const { stream } = await options.engine.startExec(containerId, { command: ['true'] });
      stream.resume();
      await new Promise((resolve) => stream.once('end', resolve));
    };
    const cliExec = () =>
      run('docker', ['exec', containerId, 'true'], {
        env: { ...process.env, DOCKER_HOST: engine.dockerHost },
      });
    for (let index = 0; index < 10; index++)
      await Promise.all([
        sandbox.exec({ command: 'true' }),
        execSandbox.exec({ command: 'true' }),
        bareExec(),
        cliExec(),
      ]);
    // In rounds of blocks (20 calls of one path, then the next), with a pause between blocks: a
    // Docker exec (and the CLI's process) leaves the engine cleaning up after it returns, which
    // would land on whichever call comes next if the paths alternated call by call.
    const paths: Array<[number[], () => Promise<unknown>]> = [
      [ours, () => sandbox.exec({ command: 'true' })],
      [oursExec, () => execSandbox.exec({ command: 'true' })],
      [bare, bareExec],
      [cli, cliExec],
    ];
    const block = 20;
    for (let round = 0; round < Math.ceil(runs / block); round++) {
      for (const [samples, call] of paths) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        for (let index = 0; index < block; index++) await time(samples, call);
      }
    }

    // 4. a new session's first command, its container from the warm pool (refilled untimed).
    const firstRunner: number[] = [];
    const firstExec: number[] = [];
    for (let index = 0; index < sandboxRuns; index++) {
      await Promise.all([pooled.fillWarmPool(), execPooled.fillWarmPool()]);
      await time(firstRunner, () => pooled.forSession(`first-${index}`).exec({ command: 'true' }));
      await time(firstExec, () => execPooled.forSession(`first-${index}`).exec({ command: 'true' }));
      await Promise.all([pooled.removeSession(`first-${index}`), execPooled.removeSession(`first-${index}`)]);
    }

    // 5. 16 sessions × 50 commands at once; every command must answer `ok` with exit 0.
    const concurrent = async (service: SandboxService, label: string) => {
      const sessions = Array.from({ length: 16 }, (_, index) => service.forSession(`${label}-${index}`));
      await Promise.all(sessions.map((session) => session.exec({ command: 'true' })));
      let errors = 0;
      const started = performance.now();
      const latencies: number[] = [];
      await Promise.all(
        sessions.map(async (session) => {
          for (let index = 0; index < 50; index++) {
            const before = performance.now();
            const result = await session.exec({ command: 'echo ok' }).catch(() => undefined);
            latencies.push(performance.now() - before);
            if (result?.exitCode !== 0 || result.stdout.text !== 'ok\n') errors += 1;
          }
        }),
      );
      const wallMs = performance.now() - started;
      await Promise.all(sessions.map((session) => service.removeSession(session.sessionId)));
      return { latencies, errors, wallMs };
    };
    const concurrentRunner = await concurrent(pooled, 'many');
    const concurrentExec = await concurrent(execPooled, 'many');

    // 6. output throughput: `head -c` of the cap from /dev/zero, kept whole.
    const throughput = async (session: ReturnType<SandboxService['forSession']>) => {
      const rates: number[] = [];
      for (let index = 0; index < 10; index++) {
        const started = performance.now();
        const result = await session.exec({ command: `head -c ${throughputBytes} /dev/zero` });
        if (result.stdout.totalBytes !== throughputBytes || result.stdout.truncated)
          throw new Error('lost output');
        rates.push(throughputBytes / 1e6 / ((performance.now() - started) / 1000));
      }
      return rates;
    };
    const rateRunner = await throughput(sandbox);
    const rateExec = await throughput(execSandbox);

    const rows: Row[] = [
      { name: 'ensureSandboxImage, image current', samples: ensure, target: 'p50 ≤ 30 ms' },
      { name: 'session sandbox ready, warm pool', samples: fromPool, target: 'p50 ≤ 50 ms' },
      { name: 'session sandbox ready, cold create + start', samples: coldStart },
      { name: '`true` in a warm session, **runner**', samples: ours, target: 'p50 ≤ 10 ms' },
      {
        name: '`true` in a warm session, docker exec path (timeout wrapper, demux, exit code)',
        samples: oursExec,
      },
      { name: '`true` via bare dockerode exec (no wrapper, no exit code)', samples: bare },
      { name: '`true` via `docker exec` CLI', samples: cli },
      {
        name: "new session's first command from the warm pool, **runner**",
        samples: firstRunner,
        target: 'p50 ≤ 30 ms',
      },
      { name: "new session's first command from the warm pool, docker exec path", samples: firstExec },
      {
        name: `16 sessions × 50 \`echo ok\` at once, **runner** (${concurrentRunner.errors} errors, ${Math.round(concurrentRunner.wallMs)} ms wall)`,
        samples: concurrentRunner.latencies,
        target: 'no error',
      },
      {
        name: `16 sessions × 50 \`echo ok\` at once, docker exec path (${concurrentExec.errors} errors, ${Math.round(concurrentExec.wallMs)} ms wall)`,
        samples: concurrentExec.latencies,
      },
    ];
    const rateRows = [
      {
        name: `output throughput, ${throughputBytes / 1024 / 1024} MiB, **runner**`,
        rates: rateRunner,
        target: '≥ 50 MB/s',
      },
      {
        name: `output throughput, ${throughputBytes / 1024 / 1024} MiB, docker exec path`,
        rates: rateExec,
        target: '',
      },
    ];
    const table = `${format(rows)}\n\n${formatRates(rateRows)}`;
    console.log(table);
    if (writeDocument) {
      const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, engine ${await options.engine.version()}, ${new Date().toISOString().slice(0, 10)}`;
      const document = readFileSync(documentPath, 'utf8');
      writeFileSync(
        documentPath,
        document.replace(
          /<!-- results:start -->[\s\S]*<!-- results:end -->/,
          `<!-- results:start -->\n${machine}\n\n${table}\n<!-- results:end -->`,
        ),
      );
      console.log(`updated ${documentPath}`);
    }
    await pooled.close({ removePool: true });
    await execPooled.close({ removePool: true });
    await cold.close();
  } finally {
    await engine.stop({ removeDirectory: true });
  }
}

await main();
