import { type SandboxConfig, type SandboxLimits } from '../config/sandbox-config';
import { type ContainerCreateOptions } from '../engine/engine-client';
import { containerLabels, type ContainerRole } from './container-labels';

export const WORKSPACE_PATH = '/workspace';

/** Container names: `<owner>-session-<sessionId>` (assigned) and `<owner>-pool-<random>` (warm). */
export function sessionContainerName(ownerId: string, sessionId: string): string {
  return `${ownerId}-session-${sessionId}`;
}

export function sessionIdFromContainerName(ownerId: string, name: string): string | undefined {
  const prefix = `${ownerId}-session-`;
  const bare = name.replace(/^\//, '');
  return bare.startsWith(prefix) ? bare.slice(prefix.length) : undefined;
}

/**
 * The container's memory limit: the processes' memory plus the workspace's size. /workspace is a
 * tmpfs, and tmpfs pages are charged to the container's memory cgroup; with one limit for both, a
 * full workspace left the processes nothing and every later command — `rm` included — was
 * OOM-killed. With room for both, a full workspace only fails writes ("No space left on device"),
 * and processes always keep `memoryBytes`, whatever the workspace holds.
 */
export function containerMemoryBytes(limits: SandboxLimits): number {
  return limits.memoryBytes + limits.workspaceBytes;
}

/**
 * A hardened sandbox container: no network, read-only root, every capability dropped,
 * no-new-privileges, a non-root user, pids/memory/CPU limits, and /workspace as a size-capped
 * tmpfs. The tmpfs is a tmpfs-backed anonymous *volume* rather than a `--tmpfs` mount because the
 * engine's archive API (file read/write) cannot reach `--tmpfs` mounts on a read-only root; the
 * volume is removed with the container.
 */
export function hardenedContainerOptions(
  config: SandboxConfig,
  input: { imageId: string; name: string; role: Exclude<ContainerRole, 'pin'>; sessionId?: string },
): ContainerCreateOptions {
  const { limits, userId, groupId } = config;
  return {
    name: input.name,
    Image: input.imageId,
    Cmd: ['sleep', 'infinity'],
    User: `${userId}:${groupId}`,
    WorkingDir: WORKSPACE_PATH,
    Env: [`HOME=${WORKSPACE_PATH}`, `TMPDIR=${WORKSPACE_PATH}`],
    NetworkDisabled: true,
    Labels: {
      [containerLabels.owner]: config.ownerId,
      [containerLabels.role]: input.role,
      [containerLabels.createdAt]: new Date().toISOString(),
      ...(input.sessionId ? { [containerLabels.session]: input.sessionId } : {}),
    },
    HostConfig: {
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: limits.pids,
      Memory: containerMemoryBytes(limits),
      MemorySwap: containerMemoryBytes(limits), // the same: no swap
      NanoCpus: Math.round(limits.cpus * 1e9),
      // Without an init, `sleep` as PID 1 ignores SIGTERM (stop waits 10 s) and zombies pile up.
      Init: true,
      RestartPolicy: { Name: 'no' },
      LogConfig: { Type: 'none', Config: {} },
      Mounts: [
        {
          Type: 'volume',
          Source: '', // anonymous: removed with the container
          Target: WORKSPACE_PATH,
          VolumeOptions: {
            NoCopy: true,
            Labels: { [containerLabels.owner]: config.ownerId },
            DriverConfig: {
              Name: 'local',
              Options: {
                type: 'tmpfs',
                device: 'tmpfs',
                o: `size=${limits.workspaceBytes},uid=${userId},gid=${groupId},mode=0755`,
              },
            },
          },
        },
      ],
    },
  };
}
