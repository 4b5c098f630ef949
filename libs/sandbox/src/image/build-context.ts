import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pack } from 'tar-stream';
import { type SandboxConfig } from '../config/sandbox-config';
import { RUNNER_PATH, RUNNER_PROGRAM } from '../runner/runner-program';

/** Labels the sandbox image carries; `ensureSandboxImage` compares the first two. */
export const imageLabels = {
  version: 'agentdesk.sandbox.version',
  contentHash: 'agentdesk.sandbox.content-hash',
  builtAt: 'agentdesk.sandbox.built-at',
  baseImage: 'agentdesk.sandbox.base-image',
} as const;

const runnerContextPath = 'agentdesk-runner.cjs';

/** The rendered build context: its files and the hash that identifies them. */
export interface BuildContext {
  readonly dockerfile: string;
  /** Files beside the Dockerfile (the in-container command runner), by context path. */
  readonly files: Readonly<Record<string, string>>;
  /** sha256 of every file in the context; a different hash means the image must be rebuilt. */
  readonly contentHash: string;
}

/**
 * The sandbox Dockerfile. Extra steps run as root; then the image switches to the non-root user,
 * whose home and working directory is /workspace (a size-capped tmpfs at run time).
 */
export function renderBuildContext(config: SandboxConfig): BuildContext {
  const user = `${config.userId}:${config.groupId}`;
  const dockerfile = [
    `FROM ${config.baseImage}`,
    ...config.extraBuildSteps,
    // The command runner (runner/runner-program.ts): root-owned, read-only for the sandbox user.
    `COPY ${runnerContextPath} ${RUNNER_PATH}`,
    `RUN mkdir -p /workspace && chown ${user} /workspace`,
    `ENV HOME=/workspace TMPDIR=/workspace`,
    `WORKDIR /workspace`,
    `USER ${user}`,
    `CMD ["sleep", "infinity"]`,
    '',
  ].join('\n');
  const files = { [runnerContextPath]: RUNNER_PROGRAM };
  const hash = createHash('sha256').update(`Dockerfile\0${dockerfile}`);
  for (const [path, content] of Object.entries(files)) hash.update(`\0${path}\0${content}`);
  return { dockerfile, files, contentHash: hash.digest('hex') };
}

/** The context as the tar stream the engine's build endpoint reads. */
export function buildContextTar(context: BuildContext): Readable {
  const archive = pack();
  archive.entry({ name: 'Dockerfile', mode: 0o644, mtime: new Date(0) }, context.dockerfile);
  for (const [path, content] of Object.entries(context.files)) {
    archive.entry({ name: path, mode: 0o644, mtime: new Date(0) }, content);
  }
  archive.finalize();
  return Readable.from(archive);
}
