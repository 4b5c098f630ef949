import { createHash } from 'node:crypto';
import { JAVASCRIPT_ASSERTION_PROGRAM } from './javascript-assertion-program';

/**
 * The shell side of the resident assertion runner (`node <program> --serve <directory>`, one per
 * sandbox container): the command that starts it and the command each cell sends its request
 * with. Both run through the container's command runner; the per-cell one uses shell built-ins
 * and one small process (`mkfifo`), so a cell costs one runner round trip instead of
 * Node's start (≈ 70 ms) and an archive upload (≈ 100 ms).
 */

/** The program under a name that changes with its content: an API of another version never runs an old copy. */
export const ASSERTION_PROGRAM_PATH = `.qa/assertions-${createHash('sha256').update(JAVASCRIPT_ASSERTION_PROGRAM).digest('hex').slice(0, 12)}.cjs`;

/** Exit code of a request command that found no server of this container (start one, then ask again). */
export const NO_SERVER_EXIT_CODE = 98;

/** Exit code of a request command whose runner died while judging it (its reply pipe closed unanswered). */
export const RUNNER_DIED_EXIT_CODE = 96;

/**
 * Exit code of a request command that got no answer from a runner still alive: it gave up on the
 * client, which opened its reply pipe too late (a loaded machine). Ask again; the runner is fine.
 */
export const NOT_ANSWERED_EXIT_CODE = 97;

/** The resident runner's heap: a check that allocates without end kills it quickly and says so in its log. */
const SERVER_HEAP_MB = 128;

/**
 * Quoted for `sh`: inside single quotes nothing is special but the quote itself, which becomes
 * `'\''` (close, escaped quote, reopen).
 */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Prints the memory cgroup's count of OOM kills as `oom_kill <n>` (cgroup v2, then v1). */
const OOM_KILLS =
  'grep -h "^oom_kill " /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null | head -n 1';

/**
 * `alive <pid>`: the process exists and is not a zombie. `kill -0` is not enough: a runner killed
 * in a container whose init has not reaped it yet still answers `kill -0`, and a write to its
 * FIFO would then wait for a reader that is never coming.
 */
const ALIVE_FUNCTION = [
  'alive() {',
  '  read -r stat < /proc/$1/stat 2>/dev/null || return 1',
  '  case "$stat" in *") Z "*|*") X "*) return 1;; esac',
  '}',
].join('\n');

/** How long a start waits for the runner's pid file: Node's start on a loaded machine can take seconds. */
const START_WAIT_SECONDS = 20;

/**
 * Starts the runner of this container and prints its directory, then the container's count of
 * OOM kills (a runner that dies later is told apart: killed for memory or not). The directory is named after the
 * container's host name: a workspace carried over into a new container (new image) brings the old
 * directory and pid file along, and a pid there could be anybody's in the new container. A runner
 * already there (a restart after a timeout) is killed first. Fails with the runner's log when it
 * dies or does not come up within START_WAIT_SECONDS.
 */
export function startServerCommand(): string {
  return [
    'read -r host < /etc/hostname || exit 1',
    'd=.qa/s-$host',
    ALIVE_FUNCTION,
    'if read -r old < $d/pid 2>/dev/null; then kill -9 "$old" 2>/dev/null; fi',
    'rm -rf $d && mkdir -p $d && mkfifo $d/in || exit 1',
    `UV_THREADPOOL_SIZE=1 node --max-old-space-size=${SERVER_HEAP_MB} ${ASSERTION_PROGRAM_PATH} --serve $d < /dev/null > $d/log 2>&1 &`,
    'server=$!',
    // Counted in seconds of the container's clock, not in turns of the loop: a busy machine runs
    // the loop slower.
    'read -r up rest < /proc/uptime',
    `give_up=$((\${up%.*} + ${START_WAIT_SECONDS}))`,
    'until [ -f $d/pid ]; do',
    '  read -r up rest < /proc/uptime',
    '  if ! alive $server || [ "${up%.*}" -ge $give_up ]; then tail -c 500 $d/log >&2; exit 1; fi',
    '  sleep 0.02',
    'done',
    'echo "$d"',
    OOM_KILLS,
  ].join('\n');
}

/**
 * Sends one request to the runner in `directory` and prints its one-line answer. Exits
 * RUNNER_DIED_EXIT_CODE when the runner died while judging it (its end of the reply pipe closed
 * unanswered), NOT_ANSWERED_EXIT_CODE when it closed unanswered but the runner lives on,
 * NO_SERVER_EXIT_CODE when this container has no runner (a new container, a runner that died).
 * `request` is the request's JSON, or undefined when it was written to `q-<id>.json` beforehand
 * (too long for a command line).
 */
export function requestCommand(directory: string, id: string, request: string | undefined): string {
  const host = directory.slice(directory.lastIndexOf('/s-') + 3);
  return [
    `d=${directory}`,
    ALIVE_FUNCTION,
    `read -r host < /etc/hostname && [ "$host" = ${shellQuote(host)} ] && read -r pid < $d/pid && alive "$pid" || exit ${NO_SERVER_EXIT_CODE}`,
    `mkfifo $d/r-${id} || exit ${NO_SERVER_EXIT_CODE}`,
    ...(request === undefined ? [] : [`printf '%s' ${shellQuote(request)} > $d/q-${id}.json`]),
    `echo ${id} > $d/in`,
    // Built-ins only (a reply is one short line): no process to start for reading it.
    `if IFS= read -r reply < $d/r-${id}; then printf '%s\\n' "$reply"; exit 0; fi`,
    // No answer. A dying process closes its files a moment before it is a zombie: look again
    // for a little while before calling the runner alive.
    'for wait in 1 2 3 4 5; do alive "$pid" || break; sleep 0.02; done',
    `alive "$pid" && exit ${NOT_ANSWERED_EXIT_CODE}`,
    `exit ${RUNNER_DIED_EXIT_CODE}`,
  ].join('\n');
}

/** Why the runner died: the container's count of OOM kills, then the end of its log ("JavaScript heap out of memory", …). */
export function serverDeathCommand(directory: string): string {
  return `${OOM_KILLS}; tail -c 500 ${directory}/log 2>/dev/null; true`;
}

/** The count `OOM_KILLS` printed in `output`; undefined where the cgroup does not say. */
export function oomKillsIn(output: string): number | undefined {
  const match = /^oom_kill (\d+)$/m.exec(output);
  return match === null ? undefined : Number(match[1]);
}
