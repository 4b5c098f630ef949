/**
 * Where a custom assertion's time goes in the sandbox: the request the API's assertion runner
 * sends per cell to the resident runner (`requestCommand`), timed alone in one warm session,
 * interleaved, beside `true` (the command runner's floor) and the way before the resident runner
 * (write the request through the archive API, then `node <program> <request>`: Node's start per cell).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  ASSERTION_PROGRAM_PATH,
  JAVASCRIPT_ASSERTION_PROGRAM,
  requestCommand,
  startServerCommand,
} from '@agentdesk/qa-suites';
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
    await sandbox.writeFile(ASSERTION_PROGRAM_PATH, JAVASCRIPT_ASSERTION_PROGRAM);
    await sandbox.writeFile(requestPath, request);
    const started = await sandbox.exec({ command: startServerCommand() });
    const directory = started.stdout.text.trim().split('\n')[0]!;
    if (started.exitCode !== 0) throw new Error(`the assertion runner did not start: ${started.stderr.text}`);
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['`true` through the runner (its floor)', () => sandbox.exec({ command: 'true' })],
      [
        'one request to the resident assertion runner (one check) — per cell now',
        async () => {
          const result = await sandbox.exec({ command: requestCommand(directory, randomUUID(), request) });
          if (!result.stdout.text.includes('"passed":')) throw new Error(`no verdict: ${result.stdout.text}`);
        },
      ],
      [
        'before: writeFile of the request (engine archive API)',
        () => sandbox.writeFile(requestPath, request),
      ],
      [
        'before: `node <program> <request>` (Node start per cell, one check)',
        () => sandbox.exec({ command: `node ${ASSERTION_PROGRAM_PATH} ${requestPath}` }),
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
