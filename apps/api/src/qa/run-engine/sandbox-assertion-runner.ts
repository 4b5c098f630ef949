import { randomUUID } from 'node:crypto';
import {
  ASSERTION_PROGRAM_PATH,
  JAVASCRIPT_ASSERTION_PROGRAM,
  NO_SERVER_EXIT_CODE,
  NOT_ANSWERED_EXIT_CODE,
  oomKillsIn,
  requestCommand,
  RUNNER_DIED_EXIT_CODE,
  serverDeathCommand,
  shellQuote,
  startServerCommand,
  type JavaScriptAssertionRunner,
} from '@agentdesk/qa-suites';
import { isSandboxError, type SessionSandbox } from '@agentdesk/sandbox';
import type { Logger } from 'pino';
import { z } from 'zod';

/** The sandbox every custom assertion runs in: one, shared by all runs (assertions hold no user's data). */
export const ASSERTION_SANDBOX_SESSION_ID = 'qa-assertions';
/** What a check may take (a loop is stopped here and fails its check). */
export const CHECK_TIMEOUT_MS = 1_000;
/**
 * Beside a request's own checks: the runner answers one request at a time, so a request may wait
 * behind others' (each check at most CHECK_TIMEOUT_MS).
 */
const QUEUE_ALLOWANCE_MS = 20_000;
/** Beyond the start command's own wait for the runner (20 s). */
const START_TIMEOUT_MS = 30_000;
/** One JSON line of verdicts (messages are clipped to 2,000 characters by the program). */
const MAX_OUTPUT_BYTES = 256 * 1024;
/** A request longer than this goes in as a file (the runner's command line takes 100,000 characters). */
const MAX_INLINE_REQUEST_CHARACTERS = 90_000;
const NOT_AVAILABLE = 'the sandbox is not available';
const SERVER_DIRECTORY = /^\.qa\/s-[A-Za-z0-9._-]{1,128}$/;

const answerSchema = z.union([
  z.object({
    results: z.array(
      z.object({
        passed: z.boolean().nullable(),
        message: z.string().nullable(),
        durationMs: z.number().nullable(),
      }),
    ),
  }),
  z.object({ error: z.string() }),
]);

type Verdicts = Awaited<ReturnType<JavaScriptAssertionRunner>>;

function unjudged(checks: readonly unknown[], message: string): Verdicts {
  return checks.map(() => ({ passed: null, message, durationMs: null }));
}

/** The runner of one container, and the requests that wait on it. */
interface Server {
  /** Resolves once the runner is up: its directory, and the container's OOM kills then. */
  readonly started: Promise<{ directory: string; oomKills: number | undefined }>;
  /** Aborted when the runner is found dead or stuck: requests waiting on it are asked again of the next. */
  readonly retired: AbortController;
}

/** Why a request got no answer from the runner it was sent to (gone, replaced, or it gave up on us). */
class ServerGone extends Error {}

/** A runner that did not come up: its checks are unjudged with the reason. */
class ServerNotStarted extends Error {}

/**
 * Runs a cell's JavaScript checks in the sandbox, never in the API process: one resident runner
 * per sandbox container (`assertion-server-commands.ts`) answers every cell's request, each check
 * in a fresh `vm` context with a time limit; the container has no network, limited memory and
 * processes. A runner that is gone (new container, killed, out of memory) is started again; the
 * requests that waited on it are asked once more of the new one. Without a sandbox (disabled on
 * this server, engine away) every check is unjudged: passed null.
 */
export class SandboxAssertionRunner {
  private server: Server | undefined;

  constructor(
    private readonly sandbox: () => SessionSandbox | undefined,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  readonly run: JavaScriptAssertionRunner = async (output, checks) => {
    if (checks.length === 0) return [];
    const sandbox = this.sandbox();
    if (sandbox === undefined) return unjudged(checks, NOT_AVAILABLE);
    const request = JSON.stringify({
      output,
      checks: checks.map((check) => ({ code: check.code })),
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    const timeoutMs = checks.length * CHECK_TIMEOUT_MS + QUEUE_ALLOWANCE_MS;
    try {
      try {
        return await this.ask(sandbox, request, checks, timeoutMs);
      } catch (error) {
        // The runner was gone or replaced while this request waited: once more, on a fresh one.
        if (!(error instanceof ServerGone)) throw error;
        return await this.ask(sandbox, request, checks, timeoutMs);
      }
    } catch (error) {
      if (error instanceof ServerGone) return unjudged(checks, 'the assertion runner could not be reached');
      if (error instanceof ServerNotStarted) {
        this.logger.warn({ err: error }, 'the assertion runner did not start');
        return unjudged(checks, error.message);
      }
      if (isSandboxError(error, 'exec-timeout'))
        return unjudged(checks, `the assertions did not finish within ${timeoutMs} ms`);
      if (isSandboxError(error, 'out-of-memory')) return unjudged(checks, 'the assertions ran out of memory');
      this.logger.warn({ err: error }, 'custom assertions could not run in the sandbox');
      return unjudged(checks, NOT_AVAILABLE);
    }
  };

  private async ask(
    sandbox: SessionSandbox,
    request: string,
    checks: readonly unknown[],
    timeoutMs: number,
  ): Promise<Verdicts> {
    const server = this.serverOf(sandbox);
    const { directory, oomKills } = await server.started;
    const id = randomUUID();
    const inline = shellQuote(request).length <= MAX_INLINE_REQUEST_CHARACTERS;
    if (!inline) await sandbox.writeFile(`${directory}/q-${id}.json`, request);
    let result;
    try {
      result = await sandbox.exec(
        {
          command: requestCommand(directory, id, inline ? request : undefined),
          timeoutMs,
          maxOutputBytes: MAX_OUTPUT_BYTES,
        },
        server.retired.signal,
      );
    } catch (error) {
      if (isSandboxError(error, 'exec-cancelled')) throw new ServerGone();
      // A runner that let a request wait this long is stuck or swamped: the next request starts afresh.
      if (isSandboxError(error, 'exec-timeout')) this.retire(server);
      throw error;
    }
    if (result.exitCode === NO_SERVER_EXIT_CODE) {
      this.retire(server);
      throw new ServerGone();
    }
    // The runner lives but gave up waiting for this client (a stalled shell): ask again, same runner.
    if (result.exitCode === NOT_ANSWERED_EXIT_CODE) throw new ServerGone();
    if (result.exitCode === RUNNER_DIED_EXIT_CODE) {
      // The runner died while judging this request: these checks are what killed it.
      this.retire(server);
      return unjudged(checks, await this.deathOf(sandbox, directory, oomKills));
    }
    return this.verdictsOf(result.exitCode, result.stdout.text.trim(), result.stderr.text, checks);
  }

  /** The current runner, started on first use (one start at a time, shared by every request). */
  private serverOf(sandbox: SessionSandbox): Server {
    if (this.server !== undefined) return this.server;
    const retired = new AbortController();
    const server: Server = { retired, started: this.startServer(sandbox) };
    // A runner that could not start is not kept: the next request tries again.
    server.started.catch(() => this.retire(server));
    this.server = server;
    return server;
  }

  private async startServer(
    sandbox: SessionSandbox,
  ): Promise<{ directory: string; oomKills: number | undefined }> {
    // Written on every start: a new container has an empty workspace.
    await sandbox.writeFile(ASSERTION_PROGRAM_PATH, JAVASCRIPT_ASSERTION_PROGRAM);
    const started = await sandbox.exec({ command: startServerCommand(), timeoutMs: START_TIMEOUT_MS });
    const [directory = '', ...rest] = started.stdout.text.trim().split('\n');
    if (started.exitCode !== 0 || !SERVER_DIRECTORY.test(directory))
      throw new ServerNotStarted(
        `the assertion runner did not start (exit ${started.exitCode}): ${started.stderr.text.trim().slice(0, 300)}`,
      );
    return { directory, oomKills: oomKillsIn(rest.join('\n')) };
  }

  private retire(server: Server): void {
    if (this.server === server) this.server = undefined;
    server.retired.abort();
  }

  /** Why the runner died under a request: its heap, the container's memory, or something else. */
  private async deathOf(
    sandbox: SessionSandbox,
    directory: string,
    oomKillsAtStart: number | undefined,
  ): Promise<string> {
    const said = await sandbox
      .exec({ command: serverDeathCommand(directory), timeoutMs: 5_000 })
      .then((result) => result.stdout.text)
      .catch(() => '');
    if (/heap out of memory|allocation failed/i.test(said))
      return 'the assertions ran out of memory (the JavaScript heap is capped)';
    const oomKills = oomKillsIn(said);
    if (oomKills !== undefined && oomKillsAtStart !== undefined && oomKills > oomKillsAtStart)
      return "the assertions ran out of memory (the sandbox's memory limit)";
    return 'the assertion runner stopped while judging these checks (it was killed)';
  }

  private verdictsOf(exitCode: number, line: string, stderr: string, checks: readonly unknown[]): Verdicts {
    let answer: z.infer<typeof answerSchema> | undefined;
    try {
      answer = answerSchema.safeParse(JSON.parse(line)).data;
    } catch {
      answer = undefined;
    }
    if (
      exitCode === 0 &&
      answer !== undefined &&
      'results' in answer &&
      answer.results.length === checks.length
    )
      return answer.results;
    const why = answer !== undefined && 'error' in answer ? answer.error : stderr.trim().slice(0, 300);
    return unjudged(checks, `the assertion runner failed (exit ${exitCode})${why === '' ? '' : `: ${why}`}`);
  }
}
