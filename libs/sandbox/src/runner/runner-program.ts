/**
 * The command runner that lives inside every sandbox container (E2B's in-sandbox daemon and
 * Daytona's toolbox have the same shape): one long-lived Node.js process per container and API
 * process, reached over one attached exec stream, that starts commands, streams their output,
 * enforces the timeout and the output cap, kills a command's whole tree on cancel, and reports
 * exit code, signal and out-of-memory kills. It saves a Docker exec (create + start + inspect,
 * ~60–75 ms) on every command.
 *
 * It is plain CommonJS for the image's own `node` (no dependencies, nothing to install), kept as a
 * string so the build context carries it byte for byte and its hash triggers a rebuild when it
 * changes. The frame format is `runner-frames.ts`; both sides must agree on it.
 */
export const RUNNER_PATH = '/opt/agentdesk/runner.cjs';

/** Bumped whenever the program or the frame format changes (it is also in the image's content hash). */
export const RUNNER_VERSION = '1';

/**
 * Why a wrapper shell: `oom_score_adj` 1000 makes a command's processes the kernel's first choice
 * when the container runs out of memory, so the runner survives a memory hog. Raising one's own
 * score needs no capability; `exec` keeps `$$` and `sh -c` semantics exactly as a plain `sh -c`.
 */
export const RUNNER_PROGRAM = String.raw`'use strict';
const { spawn } = require('child_process');
const fs = require('fs');

const VERSION = '${RUNNER_VERSION}';
const HEADER = 9;
const KIND = { start: 1, kill: 2, ready: 10, stdout: 11, stderr: 12, exit: 13 };
const WRAPPER = 'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; exec sh -c "$1"';
const IDLE_AFTER_EXIT_MS = 200;
const SIGNAL_NUMBERS = require('os').constants.signals;

const out = process.stdout;
const commands = new Map();
let backpressured = false;

function send(kind, id, payload) {
  const head = Buffer.allocUnsafe(HEADER);
  head.writeUInt8(kind, 0);
  head.writeUInt32BE(id, 1);
  head.writeUInt32BE(payload ? payload.length : 0, 5);
  let ok = out.write(head);
  if (payload && payload.length) ok = out.write(payload);
  if (!ok && !backpressured) {
    backpressured = true;
    for (const command of commands.values()) pauseOutput(command);
    out.once('drain', () => {
      backpressured = false;
      for (const command of commands.values()) resumeOutput(command);
    });
  }
}

function sendJson(kind, id, value) {
  send(kind, id, Buffer.from(JSON.stringify(value)));
}

function pauseOutput(command) {
  if (command.child.stdout) command.child.stdout.pause();
  if (command.child.stderr) command.child.stderr.pause();
}

function resumeOutput(command) {
  if (command.child.stdout) command.child.stdout.resume();
  if (command.child.stderr) command.child.stderr.resume();
}

/** The memory cgroup's count of OOM kills (v2 memory.events, v1 memory.oom_control); -1 unknown. */
function readOomKills() {
  for (const file of ['/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control']) {
    try {
      const match = /oom_kill (\d+)/.exec(fs.readFileSync(file, 'utf8'));
      if (match) return Number(match[1]);
    } catch (error) {}
  }
  return -1;
}

function readStatFields(pid) {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch (error) {
    return undefined;
  }
}

function otherPids() {
  let names = [];
  try {
    names = fs.readdirSync('/proc');
  } catch (error) {}
  const pids = [];
  for (const name of names) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 1 && pid !== process.pid) pids.push(pid);
  }
  return pids;
}

function killPid(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {}
}

/**
 * The command's tree: its process group, every process carrying its marker in the environment,
 * and every process in a session one of those leads or belongs to. No fork is needed, so this
 * works while a fork bomb holds every pid of the container. Three passes catch late forks.
 */
function killTree(command) {
  try {
    process.kill(-command.child.pid, 'SIGKILL');
  } catch (error) {}
  const marker = 'AGENTDESK_EXEC_ID=' + command.marker;
  const sessions = new Set([String(command.child.pid)]);
  for (const pid of otherPids()) {
    let environ = '';
    try {
      environ = fs.readFileSync('/proc/' + pid + '/environ', 'latin1');
    } catch (error) {
      continue;
    }
    if (!environ.split('\0').includes(marker)) continue;
    killPid(pid);
    const fields = readStatFields(pid);
    if (fields && Number(fields[3]) > 1) sessions.add(fields[3]);
  }
  for (let pass = 0; pass < 3; pass++) {
    for (const pid of otherPids()) {
      const fields = readStatFields(pid);
      if (fields && sessions.has(fields[3])) killPid(pid);
    }
  }
}

function finish(command, extra) {
  if (command.finished) return;
  command.finished = true;
  clearTimeout(command.timer);
  clearTimeout(command.idleTimer);
  commands.delete(command.id);
  sendJson(KIND.exit, command.id, Object.assign(
    {
      stdoutBytes: command.totalBytes[1],
      stderrBytes: command.totalBytes[2],
      timedOut: command.timedOut,
      cancelled: command.cancelled,
      durationMs: Number(process.hrtime.bigint() - command.startedAt) / 1e6,
    },
    extra,
  ));
}

function forward(command, stream, chunk) {
  command.totalBytes[stream] += chunk.length;
  const room = command.maxOutputBytes - command.keptBytes[stream];
  if (room > 0) {
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    command.keptBytes[stream] += kept.length;
    send(stream === 1 ? KIND.stdout : KIND.stderr, command.id, kept);
  }
  if (command.exit) armIdleTimer(command);
}

/** After the shell exits, output still in the pipes is read until they close or go quiet. */
function armIdleTimer(command) {
  clearTimeout(command.idleTimer);
  command.idleTimer = setTimeout(() => report(command), IDLE_AFTER_EXIT_MS);
}

function report(command) {
  const exit = command.exit;
  const signalNumber = exit.signal ? SIGNAL_NUMBERS[exit.signal] || 0 : 0;
  const exitCode = exit.code !== null ? exit.code : 128 + signalNumber;
  const killed = exitCode === 137 || exit.signal === 'SIGKILL';
  const oomAfter = killed ? readOomKills() : -1;
  finish(command, {
    exitCode,
    signal: exit.signal || undefined,
    oomKilled: killed && command.oomBefore >= 0 && oomAfter > command.oomBefore,
  });
}

function start(id, request) {
  const command = {
    id,
    marker: String(request.marker),
    maxOutputBytes: request.maxOutputBytes,
    totalBytes: { 1: 0, 2: 0 },
    keptBytes: { 1: 0, 2: 0 },
    timedOut: false,
    cancelled: false,
    finished: false,
    exit: undefined,
    startedAt: process.hrtime.bigint(),
    oomBefore: readOomKills(),
  };
  const env = Object.assign({}, process.env, { AGENTDESK_EXEC_ID: command.marker });
  try {
    command.child = spawn('sh', ['-c', WRAPPER, 'sh', request.command], {
      cwd: request.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (error) {
    commands.delete(id);
    sendJson(KIND.exit, id, { spawnError: String(error && error.message) });
    return;
  }
  commands.set(id, command);
  if (backpressured) pauseOutput(command);
  command.child.on('error', (error) => finish(command, { spawnError: String(error && error.message) }));
  if (command.child.stdout) command.child.stdout.on('data', (chunk) => forward(command, 1, chunk));
  if (command.child.stderr) command.child.stderr.on('data', (chunk) => forward(command, 2, chunk));
  command.child.on('exit', (code, signal) => {
    command.exit = { code, signal };
    armIdleTimer(command);
  });
  command.child.on('close', () => {
    if (command.exit) report(command);
  });
  command.timer = setTimeout(() => {
    command.timedOut = true;
    killTree(command);
  }, request.timeoutMs);
}

function stop(id) {
  const command = commands.get(id);
  if (!command || command.finished) return;
  command.cancelled = true;
  killTree(command);
}

let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  while (pending.length >= HEADER) {
    const length = pending.readUInt32BE(5);
    if (pending.length < HEADER + length) break;
    const kind = pending.readUInt8(0);
    const id = pending.readUInt32BE(1);
    const payload = pending.subarray(HEADER, HEADER + length);
    pending = pending.subarray(HEADER + length);
    try {
      if (kind === KIND.start) start(id, JSON.parse(payload.toString('utf8')));
      else if (kind === KIND.kill) stop(id);
    } catch (error) {
      sendJson(KIND.exit, id, { spawnError: 'runner: ' + String(error && error.message) });
    }
  }
});
// The API process went away: nothing will read these commands' results, so nothing keeps running.
process.stdin.on('end', () => {
  for (const command of commands.values()) killTree(command);
  process.exit(0);
});
out.on('error', () => process.exit(0));
sendJson(KIND.ready, 0, { version: VERSION, pid: process.pid });
`;
