import { createHash, randomUUID } from 'node:crypto';
import { JAVASCRIPT_ASSERTION_PROGRAM, type JavaScriptAssertionRunner } from '@agentdesk/qa-suites';
import { isSandboxError, type SessionSandbox } from '@agentdesk/sandbox';
import type { Logger } from 'pino';
import { z } from 'zod';

/** The sandbox every custom assertion runs in: one, shared by all runs (assertions hold no user's data). */
export const ASSERTION_SANDBOX_SESSION_ID = 'qa-assertions';
/** What a check may take (a loop is stopped here and fails its check). */
export const CHECK_TIMEOUT_MS = 1_000;
/** Node's start in the container, and the writes around it, beside the checks themselves. */
const PROCESS_ALLOWANCE_MS = 10_000;
/** One JSON line of verdicts (messages are clipped to 2,000 characters by the program). */
const MAX_OUTPUT_BYTES = 256 * 1024;
const NOT_AVAILABLE = 'the sandbox is not available';

/** The program under a name that changes with its content: an API of another version never runs an old copy. */
const PROGRAM_PATH = `.qa/assertions-${createHash('sha256').update(JAVASCRIPT_ASSERTION_PROGRAM).digest('hex').slice(0, 12)}.cjs`;

const verdictsSchema = z.array(
  z.object({
    passed: z.boolean().nullable(),
    message: z.string().nullable(),
    durationMs: z.number().nullable(),
  }),
);

type Verdicts = Awaited<ReturnType<JavaScriptAssertionRunner>>;

function unjudged(checks: readonly unknown[], message: string): Verdicts {
  return checks.map(() => ({ passed: null, message, durationMs: null }));
}

/**
 * Runs a cell's JavaScript checks in the sandbox, never in the API process: the request is written
 * into the shared assertion sandbox and `node <program> <request>` runs there with a timeout and a
 * small output cap (the container has no network, limited memory and processes). Without a
 * sandbox (disabled on this server, engine away) every check is unjudged: passed null.
 */
export class SandboxAssertionRunner {
  /** Whether the program was written into the current container (a new container has lost it). */
  private programWritten = false;

  constructor(
    private readonly sandbox: () => SessionSandbox | undefined,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  readonly run: JavaScriptAssertionRunner = async (output, checks) => {
    if (checks.length === 0) return [];
    const sandbox = this.sandbox();
    if (sandbox === undefined) return unjudged(checks, NOT_AVAILABLE);
    const requestPath = `.qa/request-${randomUUID()}.json`;
    const timeoutMs = checks.length * CHECK_TIMEOUT_MS + PROCESS_ALLOWANCE_MS;
    try {
      await sandbox.writeFile(
        requestPath,
        JSON.stringify({
          output,
          checks: checks.map((check) => ({ code: check.code })),
          timeoutMs: CHECK_TIMEOUT_MS,
        }),
      );
      let result = await this.exec(sandbox, requestPath, timeoutMs);
      if (result.programMissing) {
        // The container was replaced (reaped when idle, removed): the program goes in again, once.
        this.programWritten = false;
        await sandbox.writeFile(
          requestPath,
          JSON.stringify({
            output,
            checks: checks.map((check) => ({ code: check.code })),
            timeoutMs: CHECK_TIMEOUT_MS,
          }),
        );
        result = await this.exec(sandbox, requestPath, timeoutMs);
      }
      return this.verdictsOf(result, checks);
    } catch (error) {
      if (isSandboxError(error, 'exec-timeout'))
        return unjudged(checks, `the assertions did not finish within ${timeoutMs} ms`);
      if (isSandboxError(error, 'out-of-memory')) return unjudged(checks, 'the assertions ran out of memory');
      this.logger.warn({ err: error }, 'custom assertions could not run in the sandbox');
      return unjudged(checks, NOT_AVAILABLE);
    }
  };

  private async exec(
    sandbox: SessionSandbox,
    requestPath: string,
    timeoutMs: number,
  ): Promise<{ exitCode: number; stdout: string; stderr: string; programMissing: boolean }> {
    if (!this.programWritten) {
      await sandbox.writeFile(PROGRAM_PATH, JAVASCRIPT_ASSERTION_PROGRAM);
      this.programWritten = true;
    }
    // The request goes whatever happens; a missing program is told apart by its own exit code.
    const command = `if [ ! -f ${PROGRAM_PATH} ]; then rm -f ${requestPath}; exit 97; fi; node ${PROGRAM_PATH} ${requestPath}; status=$?; rm -f ${requestPath}; exit $status`;
    const result = await sandbox.exec({ command, timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES });
    return {
      exitCode: result.exitCode,
      stdout: result.stdout.text,
      stderr: result.stderr.text,
      programMissing: result.exitCode === 97,
    };
  }

  private verdictsOf(
    result: { exitCode: number; stdout: string; stderr: string },
    checks: readonly unknown[],
  ): Verdicts {
    const lastLine = result.stdout.trim().split('\n').pop() ?? '';
    let parsed: Verdicts | undefined;
    try {
      parsed = verdictsSchema.safeParse(JSON.parse(lastLine)).data;
    } catch {
      parsed = undefined;
    }
    if (result.exitCode === 0 && parsed !== undefined && parsed.length === checks.length) return parsed;
    const why = result.stderr.trim().slice(0, 300);
    return unjudged(
      checks,
      `the assertion runner failed (exit ${result.exitCode})${why === '' ? '' : `: ${why}`}`,
    );
  }
}
