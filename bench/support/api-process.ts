import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess, type ServerProcess } from './server-process';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ApiProcess extends ServerProcess {
  /** The admin key the API was started with (`AGENTDESK_ADMIN_KEY`). */
  readonly adminKey: string;
}

/** A key in the API's format, `adk_<32 hex>_<43 base64url>`, for `AGENTDESK_ADMIN_KEY`. */
export function newAdminKey(): string {
  return `adk_${randomUUID().replaceAll('-', '')}_${randomBytes(32).toString('base64url')}`;
}

/**
 * Starts the real API (`node --import tsx apps/api/src/main.ts`) in its own process on a fresh SQLite
 * file, with `AGENTDESK_ADMIN_KEY` set, the rate limit out of the way, `LOG_LEVEL=warn` (as the other
 * API benchmarks) and the given environment (provider keys and base URLs).
 */
export async function startApiProcess(
  environment: Record<string, string>,
  /** `tree`: a checkout of other code to start instead of this one (a baseline; its node_modules present). */
  options: {
    cpuProfileDirectory?: string;
    tree?: string;
    /** Extra `node` flags, e.g. `--max-old-space-size=96` to cap the heap. */
    nodeArguments?: readonly string[];
  } = {},
): Promise<ApiProcess> {
  const tree = options.tree ?? workspaceRoot;
  const folder = mkdtempSync(join(tmpdir(), 'agentdesk-bench-'));
  const adminKey = newAdminKey();
  try {
    const server = await startServerProcess({
      name: 'AgentDesk API',
      cwd: tree,
      args: [
        ...(options.nodeArguments ?? []),
        ...(options.cpuProfileDirectory
          ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDirectory}`]
          : []),
        '--import',
        'tsx',
        join(tree, 'apps/api/src/main.ts'),
      ],
      env: {
        PATH: process.env['PATH'] ?? '',
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATABASE_URL: `sqlite:${join(folder, 'bench.db')}`,
        AGENTDESK_ADMIN_KEY: adminKey,
        AGENTDESK_RATE_LIMIT_MAX: '1000000',
        ...environment,
      },
      ready: (output) => /listening on (http:\/\/[^\s]+)/.exec(output)?.[1],
    });
    return {
      ...server,
      adminKey,
      async stop() {
        await server.stop();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
