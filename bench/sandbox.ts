/**
 * libs/sandbox on a real engine: ensure when current, session sandbox ready (warm pool vs cold
 * create + start), and a `true` command round trip (ours vs dockerode's bare exec vs `docker exec`).
 *
 *   npx tsx bench/sandbox.ts            # print the table
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

async function main(): Promise<void> {
  const engine = await startPrivateEngine({
    directory: mkdtempSync('/tmp/agentdesk-bench-'),
    log: () => undefined,
  });
  try {
    const baseImage = 'agentdesk-bench-base:local';
    await buildOfflineBaseImage(engine.engine, { reference: baseImage });
    const config = (name: string, warmPoolSize: number): SandboxConfigInput => ({
      tag: 'agentdesk-bench:latest',
      baseImage,
      agentdeskVersion: 'bench',
      ownerId: `bench-${name}`,
      warmPoolSize,
      reaperIntervalMs: 0,
    });
    const options = { engine: new EngineClient({ dockerHost: engine.dockerHost }), logger: silentLogger };
    const pooled = new SandboxService(config('pool', 1), options);
    const cold = new SandboxService(config('cold', 0), options);
    await pooled.start();

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

    // 3. `true` round trip in one session's container, interleaved with dockerode and the CLI.
    const sandbox = pooled.forSession('exec');
    const containerId = await pooled.acquireContainer('exec');
    const ours: number[] = [];
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
      await Promise.all([sandbox.exec({ command: 'true' }), bareExec(), cliExec()]);
    for (let index = 0; index < runs; index++) {
      await time(ours, () => sandbox.exec({ command: 'true' }));
      await time(bare, bareExec);
      await time(cli, cliExec);
    }

    const rows: Row[] = [
      { name: 'ensureSandboxImage, image current', samples: ensure, target: 'p50 ≤ 30 ms' },
      { name: 'session sandbox ready, warm pool', samples: fromPool, target: 'p50 ≤ 50 ms' },
      { name: 'session sandbox ready, cold create + start', samples: coldStart },
      { name: '`true` via SessionSandbox.exec (timeout wrapper, demux, exit code)', samples: ours },
      { name: '`true` via bare dockerode exec (no wrapper, no exit code)', samples: bare },
      { name: '`true` via `docker exec` CLI', samples: cli },
    ];
    const table = format(rows);
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
    await cold.close();
  } finally {
    await engine.stop({ removeDirectory: true });
  }
}

await main();
