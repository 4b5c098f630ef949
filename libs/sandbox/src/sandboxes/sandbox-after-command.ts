import { type Duplex } from 'node:stream';
import { OutputDemultiplexer } from '../engine/demultiplex-output';
import { type EngineClient } from '../engine/engine-client';
import { isSandboxError } from '../engine/sandbox-error';
import { type ContainerStateAfterCommand } from './command-outcome';

/** The OOM-kill count last seen in a container; the OOM check compares against it. */
export interface OomKillCount {
  read(): number;
  write(count: number): void;
}

/** What the engine says about a sandbox right after a command ended oddly. */
export interface SandboxAfterCommand {
  readonly engineReachable: boolean;
  readonly containerState: ContainerStateAfterCommand;
  readonly oomKilled: boolean;
}

/** Exit status of a process killed by SIGKILL: the OOM killer's signal, and everyone else's `kill -9`. */
const sigkillExitCode = 137;

/**
 * Asks the engine what happened to a sandbox after a command ended with a signal (or with no exit
 * code at all): is the engine still there (a new connection is accepted), is the container there
 * and running, and — after a SIGKILL in a running container — did the cgroup's OOM-kill counter go up. Every check that fails counts as "no":
 * a failed check is never an out-of-memory kill. Never throws.
 */
export async function checkSandboxAfterCommand(
  engine: EngineClient,
  containerId: string,
  exitCode: number | undefined,
  oomKills: OomKillCount,
): Promise<SandboxAfterCommand> {
  const first = await containerStatus(engine, containerId);
  if (first.containerState !== 'running' || exitCode !== sigkillExitCode) return first;
  const count = await readOomKillCount(engine, containerId);
  if (count === undefined) {
    // The counter could not be read: the container or the engine may have gone in between.
    return containerStatus(engine, containerId);
  }
  const oomKilled = count > oomKills.read();
  oomKills.write(count);
  return { ...first, oomKilled };
}

async function containerStatus(engine: EngineClient, containerId: string): Promise<SandboxAfterCommand> {
  try {
    // First, over a new connection: an engine shutting down still answers on open ones, and has
    // already stopped its containers (the command's end) by then.
    await engine.pingNewConnection();
    const container = await engine.inspectContainer(containerId);
    // `docker rm -f` marks the container "removing" before it kills it: the exec dies while the
    // container is still there, on its way out.
    if (!container || container.State.Status === 'removing' || container.State.Dead) {
      return { engineReachable: true, containerState: 'missing', oomKilled: false };
    }
    if (!container.State.Running) {
      // A stopped container's own flag is the engine's word: its main process hit the memory limit.
      return {
        engineReachable: true,
        containerState: 'stopped',
        oomKilled: container.State.OOMKilled === true,
      };
    }
    // `State.OOMKilled` is not read for a running container: dockerd 20.10 sets it only when the
    // main process dies, never for a command inside (the counter below is what moves).
    return { engineReachable: true, containerState: 'running', oomKilled: false };
  } catch (error) {
    return {
      engineReachable: !isSandboxError(error, 'engine-unavailable'),
      containerState: 'unknown',
      oomKilled: false,
    };
  }
}

/**
 * The cgroup's OOM-kill counter, read from inside the container: `oom_kill N` in
 * memory.oom_control (cgroup v1, kernel ≥ 4.13) or memory.events (v2). Undefined when unreadable.
 */
async function readOomKillCount(engine: EngineClient, containerId: string): Promise<number | undefined> {
  let stream: Duplex | undefined;
  try {
    ({ stream } = await engine.startExec(containerId, {
      command: ['cat', '/sys/fs/cgroup/memory/memory.oom_control', '/sys/fs/cgroup/memory.events'],
    }));
    const output = new OutputDemultiplexer(4096);
    await new Promise<void>((resolve, reject) => {
      stream!.on('data', (chunk: Buffer) => output.push(chunk));
      stream!.once('end', resolve);
      stream!.once('close', resolve);
      stream!.once('error', reject);
    });
    const match = /oom_kill (\d+)/.exec(output.stdout().text);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  } finally {
    stream?.destroy();
  }
}
