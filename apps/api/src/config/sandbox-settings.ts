import { readFileSync } from 'node:fs';
import { sandboxConfigSchema, type SandboxConfig } from '@agentdesk/sandbox';
import { z } from 'zod';
import { flagVariable, wholeNumberVariable } from './environment-values';

/** How the API runs sandboxes; `config` is the lib's own validated config. */
export interface SandboxSettings {
  /** Off: no sandbox tools in agent turns; the admin sandbox routes answer 503. */
  readonly enabled: boolean;
  /** `DOCKER_HOST` (`unix:///path`, `tcp://host:port`); undefined: the default socket. */
  readonly dockerHost: string | undefined;
  /**
   * Rebuild a missing base image from this host's `node` and `busybox` (machines that cannot pull).
   * Production uses a registry base image and leaves this off.
   */
  readonly offlineBaseImage: boolean;
  /**
   * After a failed start (no engine, or an image that cannot be built), the wait before the next
   * attempt; it doubles after each further failure, up to ten minutes.
   */
  readonly startRetryMs: number;
  readonly config: SandboxConfig;
}

/** The environment variables the sandbox reads, with their meaning (also used in error messages). */
export const sandboxEnvironment = {
  AGENTDESK_SANDBOX_ENABLED: 'true to give agent turns a per-session Docker sandbox',
  DOCKER_HOST: 'the Docker engine: unix:///path/docker.sock or tcp://host:port',
  AGENTDESK_SANDBOX_IMAGE: 'the sandbox image tag',
  AGENTDESK_SANDBOX_BASE_IMAGE: 'the image the sandbox image is built FROM (shell, coreutils, Node.js)',
  AGENTDESK_SANDBOX_OFFLINE_BASE: 'true to build a missing base image from this host’s node and busybox',
  AGENTDESK_SANDBOX_OWNER: 'the label that marks this installation’s containers on a shared engine',
  AGENTDESK_SANDBOX_WARM_POOL: 'started, unassigned sandbox containers kept ready',
  AGENTDESK_SANDBOX_IDLE_TIMEOUT_MS: 'a session sandbox unused this long is removed',
  AGENTDESK_SANDBOX_MEMORY_MB: 'memory limit of a sandbox in MiB',
  AGENTDESK_SANDBOX_PIDS: 'process limit of a sandbox',
  AGENTDESK_SANDBOX_CPUS: 'CPU limit of a sandbox in cores',
  AGENTDESK_SANDBOX_WORKSPACE_MB: 'size of a sandbox’s /workspace in MiB',
  AGENTDESK_SANDBOX_EXEC_TIMEOUT_MS: 'default time a command may run',
  AGENTDESK_SANDBOX_MAX_OUTPUT_BYTES: 'bytes of stdout and of stderr kept per command',
  AGENTDESK_SANDBOX_START_RETRY_MS:
    'after a failed start, the wait before the next attempt (doubling after each further failure, up to 10 minutes)',
  AGENTDESK_SANDBOX_PIN_CHECK_INTERVAL_MS:
    'how often both image pins are re-checked in the background (at most 60000; 0 turns it off)',
} as const;

type SandboxVariable = keyof typeof sandboxEnvironment;

const wholeNumber = wholeNumberVariable;
const flag = flagVariable;

const imageReference = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9._\-/:@]{0,254}$/, {
    error: 'must be an image reference such as agentdesk-sandbox:latest',
  })
  .optional();

const environmentSchema = z.object({
  AGENTDESK_SANDBOX_ENABLED: flag,
  DOCKER_HOST: z
    .string()
    .trim()
    .regex(/^(unix:\/\/\/|tcp:\/\/|https?:\/\/|\/)\S+$/, {
      error: 'must be unix:///path/to/docker.sock or tcp://host:port',
    })
    .optional(),
  AGENTDESK_SANDBOX_IMAGE: imageReference,
  AGENTDESK_SANDBOX_BASE_IMAGE: imageReference,
  AGENTDESK_SANDBOX_OFFLINE_BASE: flag,
  AGENTDESK_SANDBOX_OWNER: z
    .string()
    .trim()
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/, { error: 'must be 1–64 letters, digits, "_", "." or "-"' })
    .optional(),
  AGENTDESK_SANDBOX_WARM_POOL: wholeNumber(0, 100),
  AGENTDESK_SANDBOX_IDLE_TIMEOUT_MS: wholeNumber(1000, 7 * 24 * 3_600_000),
  AGENTDESK_SANDBOX_MEMORY_MB: wholeNumber(16, 1024 * 1024),
  AGENTDESK_SANDBOX_PIDS: wholeNumber(8, 32_768),
  AGENTDESK_SANDBOX_CPUS: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, { error: 'must be a number of cores such as 0.5 or 2' })
    .transform(Number)
    .pipe(z.number().positive({ error: 'must be above 0' }).max(64, { error: 'must be at most 64' }))
    .optional(),
  AGENTDESK_SANDBOX_WORKSPACE_MB: wholeNumber(1, 1024 * 1024),
  AGENTDESK_SANDBOX_EXEC_TIMEOUT_MS: wholeNumber(100, 3_600_000),
  AGENTDESK_SANDBOX_MAX_OUTPUT_BYTES: wholeNumber(1024, 64 * 1024 * 1024),
  AGENTDESK_SANDBOX_START_RETRY_MS: wholeNumber(100, 3_600_000),
  AGENTDESK_SANDBOX_PIN_CHECK_INTERVAL_MS: wholeNumber(0, 60_000),
});

/**
 * Replaced by the workspace version when the API is compiled (`define` in build-tools/build-api.ts):
 * the compiled API runs where no workspace package.json exists. Undeclared under tsx and vitest.
 */
declare const AGENTDESK_BUILD_VERSION: string | undefined;

/** The AgentDesk version the sandbox image is labelled with (a new version rebuilds it). */
export const agentdeskVersion: string =
  typeof AGENTDESK_BUILD_VERSION === 'string'
    ? AGENTDESK_BUILD_VERSION
    : (
        JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version;

const mebibyte = 1024 * 1024;

/**
 * Reads the sandbox variables; problems name the variable and never its value. The sandbox is on by
 * default: `npm start` uses the engine at DOCKER_HOST or the default socket, and runs without one.
 */
export function readSandboxSettings(
  environment: Readonly<Record<string, string | undefined>>,
): { settings: SandboxSettings; problems: [] } | { settings: undefined; problems: string[] } {
  const input = Object.fromEntries(
    Object.keys(sandboxEnvironment).map((name) => [name, blankToUndefined(environment[name])]),
  );
  const parsed = environmentSchema.safeParse(input);
  if (!parsed.success) {
    return {
      settings: undefined,
      problems: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]) as SandboxVariable;
        return `${name} (${sandboxEnvironment[name]}): ${issue.message}`;
      }),
    };
  }
  const values = parsed.data;
  const defaults = sandboxConfigSchema.parse({ agentdeskVersion });
  const config = sandboxConfigSchema.safeParse({
    agentdeskVersion,
    ...(values.AGENTDESK_SANDBOX_IMAGE && { tag: values.AGENTDESK_SANDBOX_IMAGE }),
    ...(values.AGENTDESK_SANDBOX_BASE_IMAGE && { baseImage: values.AGENTDESK_SANDBOX_BASE_IMAGE }),
    // Installations sharing an engine each keep their own pins; the default owner keeps the seed's names.
    ...(values.AGENTDESK_SANDBOX_OWNER && {
      ownerId: values.AGENTDESK_SANDBOX_OWNER,
      pinName: `${values.AGENTDESK_SANDBOX_OWNER}-sandbox-image-pin`,
      basePinName: `${values.AGENTDESK_SANDBOX_OWNER}-sandbox-base-image-pin`,
    }),
    ...(values.AGENTDESK_SANDBOX_WARM_POOL !== undefined && {
      warmPoolSize: values.AGENTDESK_SANDBOX_WARM_POOL,
    }),
    ...(values.AGENTDESK_SANDBOX_IDLE_TIMEOUT_MS !== undefined && {
      idleTimeoutMs: values.AGENTDESK_SANDBOX_IDLE_TIMEOUT_MS,
    }),
    ...(values.AGENTDESK_SANDBOX_PIN_CHECK_INTERVAL_MS !== undefined && {
      pinCheckIntervalMs: values.AGENTDESK_SANDBOX_PIN_CHECK_INTERVAL_MS,
    }),
    limits: {
      ...defaults.limits,
      ...(values.AGENTDESK_SANDBOX_MEMORY_MB !== undefined && {
        memoryBytes: values.AGENTDESK_SANDBOX_MEMORY_MB * mebibyte,
      }),
      ...(values.AGENTDESK_SANDBOX_PIDS !== undefined && { pids: values.AGENTDESK_SANDBOX_PIDS }),
      ...(values.AGENTDESK_SANDBOX_CPUS !== undefined && { cpus: values.AGENTDESK_SANDBOX_CPUS }),
      ...(values.AGENTDESK_SANDBOX_WORKSPACE_MB !== undefined && {
        workspaceBytes: values.AGENTDESK_SANDBOX_WORKSPACE_MB * mebibyte,
      }),
    },
    exec: {
      ...defaults.exec,
      ...(values.AGENTDESK_SANDBOX_EXEC_TIMEOUT_MS !== undefined && {
        timeoutMs: values.AGENTDESK_SANDBOX_EXEC_TIMEOUT_MS,
      }),
      ...(values.AGENTDESK_SANDBOX_MAX_OUTPUT_BYTES !== undefined && {
        maxOutputBytes: values.AGENTDESK_SANDBOX_MAX_OUTPUT_BYTES,
      }),
    },
  });
  if (!config.success) {
    return {
      settings: undefined,
      problems: config.error.issues.map(
        (issue) => `sandbox setting ${issue.path.join('.')}: ${issue.message}`,
      ),
    };
  }
  return {
    problems: [],
    settings: {
      enabled: values.AGENTDESK_SANDBOX_ENABLED ?? true,
      dockerHost: values.DOCKER_HOST,
      offlineBaseImage: values.AGENTDESK_SANDBOX_OFFLINE_BASE ?? false,
      startRetryMs: values.AGENTDESK_SANDBOX_START_RETRY_MS ?? 30_000,
      config: config.data,
    },
  };
}

function blankToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The settings without anything secret (there is nothing secret here), for the start-up log line. */
export function describeSandboxSettings(settings: SandboxSettings): Record<string, unknown> {
  return {
    enabled: settings.enabled,
    engine: settings.dockerHost ?? 'default socket',
    tag: settings.config.tag,
    baseImage: settings.config.baseImage,
    warmPoolSize: settings.config.warmPoolSize,
    limits: settings.config.limits,
  };
}
