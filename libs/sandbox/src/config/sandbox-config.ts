import { z } from 'zod';

/** Docker's own rule for container and label-safe names; we reuse it for every name we derive. */
const dockerNamePattern = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;

/** Per-container limits. The defaults fit a 2-core, few-GiB host running a handful of sessions. */
export const sandboxLimitsSchema = z
  .object({
    /**
     * Memory the sandbox's processes always get, in bytes. The container's limit is this plus
     * `workspaceBytes` (the tmpfs /workspace is charged to it; see `containerMemoryBytes`); no swap.
     */
    memoryBytes: z
      .number()
      .int()
      .min(16 * 1024 * 1024)
      .default(256 * 1024 * 1024),
    /** Maximum number of processes and threads in the container (fork bombs stop here). */
    pids: z.number().int().min(8).max(32_768).default(128),
    /** CPU share in cores (0.5 = half a core). */
    cpus: z.number().positive().max(64).default(1),
    /** Size cap of the tmpfs-backed /workspace in bytes. */
    workspaceBytes: z
      .number()
      .int()
      .min(1024 * 1024)
      .default(256 * 1024 * 1024),
  })
  .strict();

/** Exec defaults; a caller may lower them per call, never raise them above the caps. */
export const sandboxExecSchema = z
  .object({
    /** Default time a command may run before its process tree is killed. */
    timeoutMs: z.number().int().min(100).default(60_000),
    /** Upper bound a caller may ask for. */
    maxTimeoutMs: z.number().int().min(100).default(600_000),
    /** Bytes kept per stream (stdout, stderr); the rest is counted and dropped. */
    maxOutputBytes: z
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    /**
     * Run commands through the in-container runner (one attached stream per container) when the
     * image has one; false: a Docker exec per command, as images built before the runner get.
     */
    useRunner: z.boolean().default(true),
    /** Largest file readFile returns or writeFile accepts. */
    maxFileBytes: z
      .number()
      .int()
      .min(1024)
      .default(16 * 1024 * 1024),
  })
  .strict();

/**
 * Everything libs/sandbox needs, validated once. The API maps its environment onto this
 * (`AGENTDESK_SANDBOX_BASE_IMAGE` → `baseImage`, …); tests and scripts build it directly.
 */
export const sandboxConfigSchema = z
  .object({
    /** The sandbox image's tag: what sessions run and what the pin keeps alive. */
    tag: z.string().min(1).default('agentdesk-sandbox:latest'),
    /**
     * The image the sandbox is built FROM (`AGENTDESK_SANDBOX_BASE_IMAGE`). It needs a POSIX shell,
     * core utilities (`sleep`, `timeout`) and Node.js. Production uses a registry image; offline,
     * `buildOfflineBaseImage` makes one from the host's own `node` and `busybox`.
     */
    baseImage: z.string().min(1).default('agentdesk-sandbox-base:local'),
    /** The container that keeps the image (and its tag) alive through prunes (the seed's name). */
    pinName: z.string().regex(dockerNamePattern).default('sandbox-image-pin'),
    /** Same for the base image: `docker system prune -af` removes an unused base tag. */
    basePinName: z.string().regex(dockerNamePattern).default('sandbox-base-image-pin'),
    /** The running AgentDesk version; an image labelled with another version is rebuilt. */
    agentdeskVersion: z.string().min(1),
    /**
     * Extra Dockerfile instructions run as root before the switch to the sandbox user (packages,
     * tools). Part of the content hash, so changing them triggers a rebuild.
     */
    extraBuildSteps: z.array(z.string().min(1).max(4096)).max(100).default([]),
    /**
     * Which installation owns a container. Several installations may share one engine; each only
     * ever lists, reaps or removes containers carrying its own owner label.
     */
    ownerId: z.string().regex(dockerNamePattern).max(64).default('agentdesk'),
    /** The non-root user sandboxes run as. */
    userId: z.number().int().min(1).max(65_535).default(1000),
    groupId: z.number().int().min(1).max(65_535).default(1000),
    limits: sandboxLimitsSchema.default(sandboxLimitsSchema.parse({})),
    exec: sandboxExecSchema.default(sandboxExecSchema.parse({})),
    /** A session container unused for this long is stopped and removed by the reaper. */
    idleTimeoutMs: z
      .number()
      .int()
      .min(1000)
      .default(30 * 60_000),
    /** How often the reaper looks; 0 turns the background reaper off (call reapIdle yourself). */
    reaperIntervalMs: z.number().int().min(0).default(60_000),
    /** Unassigned hardened containers kept ready; 0 disables the warm pool. */
    warmPoolSize: z.number().int().min(0).max(100).default(2),
    /**
     * How often the pins are re-checked in the background (missing, stopped or on another image id →
     * re-created), besides every ensure and every new session's sandbox. At most a minute, so an
     * operator's `docker stop` of both pins followed by a prune loses nothing for long; 0 turns it off.
     */
    pinCheckIntervalMs: z.number().int().min(0).max(60_000).default(30_000),
  })
  .strict();

export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;
export type SandboxConfigInput = z.input<typeof sandboxConfigSchema>;
export type SandboxLimits = z.infer<typeof sandboxLimitsSchema>;

/** Parses and defaults a config; throws a zod error naming the field on bad input. */
export function parseSandboxConfig(input: SandboxConfigInput): SandboxConfig {
  return sandboxConfigSchema.parse(input);
}
