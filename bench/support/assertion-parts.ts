/**
 * Where a custom assertion's time goes in the sandbox: the steps the API's assertion runner takes
 * per cell (write the request into the workspace, then `node <program> <request>` through the
 * session's runner), each timed alone in one warm session, interleaved, beside `true` (the
 * runner's floor) and `node -e 0` (Node's start in the container).
 */
import { performance } from 'node:perf_hooks';
import { JAVASCRIPT_ASSERTION_PROGRAM } from '@agentdesk/qa-suites';
import { EngineClient, SandboxService, silentLogger } from '@agentdesk/sandbox';
import { percentile } from './measure';

export interface AssertionPart {
  readonly name: string;
  readonly p50: number;
  readonly p95: number;
}

export async function assertionParts(options: {
  dockerHost: string;
  baseImage: string;
  rounds: number;
  code: string;
}): Promise<AssertionPart[]> {
  const service = new SandboxService(
    {
      tag: 'agentdesk-bench-qa-parts:latest',
      baseImage: options.baseImage,
      agentdeskVersion: 'bench',
      ownerId: 'bench-qa-parts',
      warmPoolSize: 1,
      reaperIntervalMs: 0,
    },
    { engine: new EngineClient({ dockerHost: options.dockerHost }), logger: silentLogger },
  );
  await service.start();
  try {
    const sandbox = service.forSession('qa-assertion-parts');
    const program = '.qa/assertions.cjs';
    const requestPath = '.qa/request.json';
    const request = JSON.stringify({
      output: {
        category: 'billing',
        urgent: false,
        priority: 3,
        tags: ['refund'],
        summary: 'Charged twice.',
      },
      checks: [{ code: options.code }],
      timeoutMs: 1_000,
    });
    await sandbox.writeFile(program, JAVASCRIPT_ASSERTION_PROGRAM);
    await sandbox.writeFile(requestPath, request);
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['`true` through the runner (its floor)', () => sandbox.exec({ command: 'true' })],
      ['writeFile of the request (engine archive API)', () => sandbox.writeFile(requestPath, request)],
      ['`node -e 0` (Node start in the container)', () => sandbox.exec({ command: 'node -e 0' })],
      [
        '`node <program> <request>` (one check)',
        () => sandbox.exec({ command: `node ${program} ${requestPath}` }),
      ],
    ];
    for (const [, call] of steps) for (let index = 0; index < 5; index++) await call();
    const samples = steps.map(() => [] as number[]);
    for (let round = 0; round < options.rounds; round++) {
      for (const [index, [, call]] of steps.entries()) {
        const started = performance.now();
        await call();
        samples[index]!.push(performance.now() - started);
      }
    }
    return steps.map(([name], index) => ({
      name,
      p50: percentile(samples[index]!, 0.5),
      p95: percentile(samples[index]!, 0.95),
    }));
  } finally {
    await service.close({ removePool: true });
  }
}
