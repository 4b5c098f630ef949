import { once } from 'node:events';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { afterEach, beforeEach } from 'vitest';
import {
  createOwnPostgresDatabase,
  type OwnPostgresDatabase,
} from '../../support/postgres-database-per-test';
import { emulatorEnvironment } from '../../support/provider-emulator';
import { startApiProcess, stopApiProcess, type ApiProcess } from './api-process';

/** What a test of API replicas on one PostgreSQL gets from `useReplicasOnPostgres`. */
export interface ReplicasOnPostgres {
  /** This test's own migrated database. */
  postgres(): OwnPostgresDatabase;
  /** This test's provider emulator, which every replica calls. */
  emulator(): ProviderEmulator;
  /** Starts `count` API processes on the database and the emulator, with `environment` on top. */
  startReplicas(count: number, environment?: Record<string, string>): Promise<ApiProcess[]>;
}

/**
 * Per test: an own PostgreSQL database and a provider emulator, and the API processes the test
 * starts on them. After the test every replica still running is killed (`SIGKILL`: a crash test
 * leaves nothing worth a graceful stop), then the emulator closes and the database is dropped.
 */
export function useReplicasOnPostgres(): ReplicasOnPostgres {
  let postgres: OwnPostgresDatabase | undefined;
  let emulator: ProviderEmulator | undefined;
  let replicas: ApiProcess[] = [];

  beforeEach(async () => {
    postgres = await createOwnPostgresDatabase();
    emulator = await startProviderEmulator();
  });
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => stopApiProcess(replica, 'SIGKILL')));
    replicas = [];
    await emulator?.close();
    await postgres?.drop();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} exists only inside a test`);
    return value;
  };
  return {
    postgres: () => started(postgres, 'the database'),
    emulator: () => started(emulator, 'the emulator'),
    async startReplicas(count, environment = {}) {
      const shared = {
        ...emulatorEnvironment(started(emulator, 'the emulator')),
        DATABASE_URL: started(postgres, 'the database').url,
        ...environment,
      };
      // Each one tracked as soon as it listens: when another fails to start, none is left running.
      return Promise.all(
        Array.from({ length: count }, async () => {
          const replica = await startApiProcess(shared);
          replicas.push(replica);
          return replica;
        }),
      );
    },
  };
}

/** `kill -9` of one replica; resolves with the signal that ended it once it exited. */
export async function crashReplica(replica: ApiProcess): Promise<NodeJS.Signals | null> {
  const exited = once(replica.child, 'exit');
  replica.child.kill('SIGKILL');
  const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  return signal;
}
