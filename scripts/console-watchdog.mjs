// The console's watchdog (scripts/console-server.ts): `node console-watchdog.mjs <command> [args…]`
// runs the command (`next start …`) in its own process group and stops that whole group — `next
// start` and the `next-server` it forks — as soon as the process that started this watchdog is gone,
// however it went: a normal exit, a crash, or `kill -9` / the OOM killer, when no exit handler runs.
//
// How it knows: its stdin is a pipe whose only writer is that parent. The kernel closes the pipe
// when the parent dies, so stdin ends here at once (no polling). Hence stdin must be that pipe: run
// with stdin from a terminal or /dev/null, it stops the command immediately.
//
// It also stops the group on SIGTERM, SIGINT and SIGHUP, and exits with the command's own status
// when the command exits by itself (a port in use…), its stderr having gone to this one's.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('usage: node scripts/console-watchdog.mjs <command> [args…] (stdin: a pipe from the parent)');
  process.exit(2);
}

// After SIGTERM, how long the group has to stop before it is killed.
const graceMs = 5_000;

// Once the parent is gone, stderr may be a pipe nobody reads: never let a write error end us early.
process.stderr.on('error', () => undefined);
process.stdout.on('error', () => undefined);

const child = spawn(command, args, { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
const group = child.pid;
let stopping = false;

child.once('error', (error) => {
  console.error(`console watchdog: cannot run ${command}: ${error.message}`);
  process.exit(1);
});
child.once('exit', (code, signal) => {
  if (stopping) return;
  // The command ended by itself: sweep whatever it left in its group, and report its status.
  signalGroup('SIGKILL');
  process.exit(code ?? (signal === null ? 1 : 128 + signalNumber(signal)));
});

/** Sends `signal` to the command's process group; false when the group no longer exists. */
function signalGroup(signal) {
  if (group === undefined) return false;
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1;
}

/** Stops the command's whole group: SIGTERM, then SIGKILL after `graceMs`; then exits. */
function stop() {
  if (stopping) return;
  stopping = true;
  if (!signalGroup('SIGTERM')) process.exit(0);
  const deadline = Date.now() + graceMs;
  const poll = setInterval(() => {
    // Signal 0 only asks whether any process of the group is left.
    if (signalGroup(0) && Date.now() < deadline) return;
    clearInterval(poll);
    signalGroup('SIGKILL');
    process.exit(0);
  }, 100);
}

process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.on('error', stop);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop);
