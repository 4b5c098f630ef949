import { type Duplex, PassThrough, type Readable, type Writable } from 'node:stream';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import Docker from 'dockerode';
import { toSandboxError } from './map-engine-error';
import { readJsonLines } from './json-lines';
import { type SandboxErrorCode } from './sandbox-error';

export type ContainerCreateOptions = Docker.ContainerCreateOptions;
export type ContainerInspectInfo = Docker.ContainerInspectInfo;
export type ContainerSummary = Docker.ContainerInfo;
export type ImageInspectInfo = Docker.ImageInspectInfo;

/** The engine's usual socket, used when an endpoint names none. */
export const DEFAULT_DOCKER_HOST = 'unix:///var/run/docker.sock';

/**
 * Where the engine is: a `DOCKER_HOST`-style URL (`unix:///path`, `tcp://host:port`), or the
 * default socket. Callers pass what their config read; this library reads no environment.
 */
export interface EngineEndpoint {
  readonly dockerHost?: string;
}

/** One JSON object of a build/import progress stream, as the engine sends it. */
export interface EngineProgressMessage {
  stream?: string;
  status?: string;
  id?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
  aux?: { ID?: string };
  error?: string;
  errorDetail?: { code?: number; message?: string };
}

export interface ExecOptions {
  readonly command: readonly string[];
  readonly env?: readonly string[];
  readonly workingDirectory?: string;
  readonly user?: string;
}

/** A running command with stdin attached; see `startAttachedExec`. */
export interface AttachedExec {
  readonly execId: string;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves when the engine closes the stream (the command ended, the container went away). */
  readonly closed: Promise<void>;
  destroy(): void;
}

function dockerodeOptions(endpoint: EngineEndpoint): Docker.DockerOptions {
  // Explicit even for the default: left empty, docker-modem would read DOCKER_HOST on its own.
  const host = endpoint.dockerHost || DEFAULT_DOCKER_HOST;
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  if (host.startsWith('/')) return { socketPath: host };
  const url = new URL(host.replace(/^tcp:/, 'http:'));
  return {
    host: url.hostname,
    port: Number(url.port || 2375),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  };
}

/**
 * The only place that talks to dockerode. Every method maps failures to SandboxError (a missing
 * engine → `engine-unavailable`), and "not found" answers that callers expect are `undefined`.
 */
export class EngineClient {
  private readonly docker: Docker;

  constructor(readonly endpoint: EngineEndpoint = {}) {
    this.docker = new Docker(dockerodeOptions(endpoint));
  }

  /** A short description of the endpoint for messages and banners. */
  describe(): string {
    return this.endpoint.dockerHost || DEFAULT_DOCKER_HOST;
  }

  async ping(): Promise<void> {
    await this.call('reach the engine', () => this.docker.ping());
  }

  async version(): Promise<string> {
    const version = await this.call('read the engine version', () => this.docker.version());
    return version.Version;
  }

  async inspectImage(reference: string): Promise<ImageInspectInfo | undefined> {
    return this.callOrUndefined(`inspect image ${reference}`, () =>
      this.docker.getImage(reference).inspect(),
    );
  }

  async tagImage(imageId: string, reference: string): Promise<void> {
    const [repository, tag] = splitReference(reference);
    await this.call(
      `tag ${imageId} as ${reference}`,
      () => this.docker.getImage(imageId).tag({ repo: repository, tag }),
      'image-missing',
    );
  }

  async removeImage(reference: string, force = false): Promise<void> {
    await this.callOrUndefined(`remove image ${reference}`, () =>
      this.docker.getImage(reference).remove({ force }),
    );
  }

  async inspectContainer(idOrName: string): Promise<ContainerInspectInfo | undefined> {
    return this.callOrUndefined(`inspect container ${idOrName}`, () =>
      this.docker.getContainer(idOrName).inspect(),
    );
  }

  async listContainers(labels: readonly string[]): Promise<ContainerSummary[]> {
    return this.call('list containers', () =>
      this.docker.listContainers({ all: true, filters: { label: [...labels] } }),
    );
  }

  async createContainer(options: ContainerCreateOptions): Promise<string> {
    const container = await this.call(
      `create container ${options.name ?? ''}`.trim(),
      () => this.docker.createContainer(options),
      'image-missing',
    );
    return container.id;
  }

  async startContainer(id: string): Promise<void> {
    await this.call(`start container ${id}`, () => this.docker.getContainer(id).start(), 'container-missing');
  }

  async stopContainer(id: string, graceSeconds = 1): Promise<void> {
    await this.callOrUndefined(`stop container ${id}`, async () => {
      try {
        await this.docker.getContainer(id).stop({ t: graceSeconds });
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode !== 304) throw error; // 304: already stopped
      }
    });
  }

  async killContainer(id: string): Promise<void> {
    await this.callOrUndefined(`kill container ${id}`, async () => {
      try {
        await this.docker.getContainer(id).kill();
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode !== 409) throw error; // 409: not running
      }
    });
  }

  /** Removes a container and its anonymous volumes (the workspace); a missing one is fine. */
  async removeContainer(id: string): Promise<void> {
    await this.callOrUndefined(`remove container ${id}`, async () => {
      try {
        await this.docker.getContainer(id).remove({ force: true, v: true });
      } catch (error) {
        // 409 "removal already in progress": another caller is removing it — same outcome.
        if ((error as { statusCode?: number }).statusCode !== 409) throw error;
      }
    });
  }

  /** Renames a container; resolves false when the name is taken (409) — the caller lost a race. */
  async renameContainer(id: string, name: string): Promise<boolean> {
    try {
      await this.docker.getContainer(id).rename({ name });
      return true;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 409) return false;
      throw toSandboxError(error, `rename container ${id}`, 'container-missing');
    }
  }

  /** Starts a command in a running container; returns the multiplexed output stream. */
  async startExec(containerId: string, options: ExecOptions): Promise<{ execId: string; stream: Duplex }> {
    return this.call(
      `run a command in container ${containerId}`,
      async () => {
        const exec = await this.docker.getContainer(containerId).exec({
          Cmd: [...options.command],
          AttachStdout: true,
          AttachStderr: true,
          AttachStdin: false,
          Tty: false,
          ...(options.env ? { Env: [...options.env] } : {}),
          ...(options.workingDirectory ? { WorkingDir: options.workingDirectory } : {}),
          ...(options.user ? { User: options.user } : {}),
        });
        const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex;
        return { execId: exec.id, stream };
      },
      'container-missing',
    );
  }

  /**
   * Starts a long-lived command with stdin attached (the in-container runner): `stdin` writes to
   * it, `stdout`/`stderr` are its demultiplexed output, `closed` resolves when the stream ends.
   */
  async startAttachedExec(containerId: string, options: ExecOptions): Promise<AttachedExec> {
    return this.call(
      `start a command in container ${containerId}`,
      async () => {
        const exec = await this.docker.getContainer(containerId).exec({
          Cmd: [...options.command],
          AttachStdin: true,
          AttachStdout: true,
          AttachStderr: true,
          Tty: false,
          ...(options.env ? { Env: [...options.env] } : {}),
          ...(options.workingDirectory ? { WorkingDir: options.workingDirectory } : {}),
          ...(options.user ? { User: options.user } : {}),
        });
        const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
        const stdout = new PassThrough();
        const stderr = new PassThrough();
        this.docker.modem.demuxStream(stream, stdout, stderr);
        const closed = new Promise<void>((resolve) => {
          const end = (): void => {
            stdout.end();
            stderr.end();
            resolve();
          };
          stream.once('end', end);
          stream.once('close', end);
          stream.once('error', end);
        });
        return { execId: exec.id, stdin: stream, stdout, stderr, closed, destroy: () => stream.destroy() };
      },
      'container-missing',
    );
  }

  async execExitCode(execId: string): Promise<number | null> {
    const info = await this.call('inspect a command', () => this.docker.getExec(execId).inspect());
    return info.Running ? null : info.ExitCode;
  }

  /** A tar stream of `path` inside the container. */
  async getArchive(containerId: string, path: string): Promise<Readable> {
    return this.call(
      `read ${path} from container ${containerId}`,
      async () => (await this.docker.getContainer(containerId).getArchive({ path })) as Readable,
      'file-not-found',
    );
  }

  /** Extracts a tar stream into `directory` inside the container. */
  async putArchive(containerId: string, directory: string, tar: Readable | Buffer): Promise<void> {
    await this.call(
      `write into ${directory} in container ${containerId}`,
      () => this.docker.getContainer(containerId).putArchive(tar, { path: directory }),
      'file-not-found',
    );
  }

  /**
   * Builds an image from a tar context and yields the engine's progress messages. A failing step
   * does not reject: it arrives as a message with `error`/`errorDetail` — the caller scans for it.
   */
  async *buildImage(
    context: Readable,
    options: Record<string, unknown>,
  ): AsyncGenerator<EngineProgressMessage> {
    const stream = (await this.call('start an image build', () =>
      this.docker.buildImage(context, options),
    )) as NodeJS.ReadableStream;
    try {
      yield* readJsonLines<EngineProgressMessage>(stream);
    } catch (error) {
      throw toSandboxError(error, 'read the build output');
    }
  }

  /** `docker import`: a root filesystem tar becomes an image with the given Dockerfile `changes`. */
  async importImage(rootfs: Readable, reference: string, changes: readonly string[]): Promise<string> {
    const [repo, tag] = splitReference(reference);
    const stream = (await this.call(`import image ${reference}`, () =>
      this.docker.importImage(rootfs as unknown as string, { repo, tag, changes: [...changes] }),
    )) as NodeJS.ReadableStream;
    let imageId = '';
    for await (const message of readJsonLines<EngineProgressMessage>(stream)) {
      if (message.error) throw toSandboxError(new Error(message.error), `import image ${reference}`);
      if (message.status?.startsWith('sha256:')) imageId = message.status.trim();
    }
    return imageId;
  }

  private async call<T>(what: string, run: () => Promise<T>, notFound?: SandboxErrorCode): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toSandboxError(error, what, notFound);
    }
  }

  private async callOrUndefined<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw toSandboxError(error, what);
    }
  }

  /**
   * `HEAD /containers/{id}/archive?path=`: the engine's stat of one path, without following its
   * last component (directories before it are followed). A symlink's `linkTarget` is where it
   * finally leads, fully resolved inside the container. Undefined on 404 — a HEAD answer has no
   * body, so a missing path and a missing container look the same there; the caller tells them apart.
   */
  async statPath(containerId: string, path: string): Promise<ContainerPathStat | undefined> {
    return this.callOrUndefined(`look up ${path} in container ${containerId}`, async () => {
      const response = (await this.docker.getContainer(containerId).infoArchive({ path })) as Readable & {
        headers: Record<string, string | string[] | undefined>;
      };
      response.resume();
      return parsePathStat(path, response.headers['x-docker-container-path-stat']);
    });
  }

  /**
   * Pings over a new connection. An engine that is shutting down closes its listener first but
   * keeps answering on connections already open (Node keeps them alive), and stops the containers
   * only after that: a plain ping would still succeed while the engine is going away.
   */
  async pingNewConnection(): Promise<void> {
    const options = dockerodeOptions(this.endpoint);
    const agent =
      options.protocol === 'https'
        ? new HttpsAgent({ keepAlive: false })
        : new HttpAgent({ keepAlive: false });
    // docker-modem takes an `agent` option that @types/dockerode does not declare.
    const withAgent: Docker.DockerOptions & { agent: HttpAgent } = { ...options, agent };
    const docker = new Docker(withAgent);
    try {
      await this.call('reach the engine', () => docker.ping());
    } finally {
      agent.destroy();
    }
  }
}

/** `name:tag` → [name, tag]; a registry port (`host:5000/name`) is not a tag. */
export function splitReference(reference: string): [string, string] {
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  if (colon > slash) return [reference.slice(0, colon), reference.slice(colon + 1)];
  return [reference, 'latest'];
}

/** One path as the engine's archive API sees it. */
export interface ContainerPathStat {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  readonly modifiedAt: string;
  /** For a symlink: the absolute path inside the container it finally leads to. */
  readonly linkTarget?: string;
}

/** Go's `os.FileMode` type bits, as the engine serializes them. */
const goModeDirectory = 0x80000000;
const goModeSymlink = 0x08000000;
/** Go's `ModeType`: directory, symlink, device, named pipe, socket, char device, irregular. */
const goModeTypeBits = 0x8f280000;

function parsePathStat(path: string, header: string | string[] | undefined): ContainerPathStat {
  const encoded = Array.isArray(header) ? header[0] : header;
  if (!encoded) throw new Error(`the engine sent no stat for ${path}`);
  const stat = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as {
    name: string;
    size: number;
    mode: number;
    mtime: string;
    linkTarget?: string;
  };
  const mode = stat.mode >>> 0;
  const type =
    (mode & goModeDirectory) !== 0
      ? 'directory'
      : (mode & goModeSymlink) !== 0
        ? 'symlink'
        : (mode & goModeTypeBits) !== 0
          ? 'other'
          : 'file';
  return {
    name: stat.name,
    type,
    size: stat.size,
    modifiedAt: stat.mtime,
    ...(type === 'symlink' && stat.linkTarget ? { linkTarget: stat.linkTarget } : {}),
  };
}
