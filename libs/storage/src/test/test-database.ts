import type { Clock } from '../clock';
import type { AppDatabase } from '../open-database';
import { createRepositories, type Repositories } from '../repositories';

/** A clock tests move by hand, so ties and date ranges are deterministic. */
export class TestClock {
  constructor(private milliseconds: number = Date.UTC(2026, 0, 1)) {}

  /** The clock function to inject. */
  readonly now: Clock = () => this.milliseconds;

  /** Sets the time. */
  set(milliseconds: number): void {
    this.milliseconds = milliseconds;
  }

  /** Moves time forward. */
  advance(milliseconds: number): void {
    this.milliseconds += milliseconds;
  }
}

/** A freshly migrated, isolated database with repositories over a test clock. */
export interface TestDatabase {
  readonly database: AppDatabase;
  readonly repositories: Repositories;
  readonly clock: TestClock;
  /** Closes the database and removes everything it created. */
  cleanup(): Promise<void>;
}

/** Creates one isolated database; the repository suite calls it once per test. */
export type TestDatabaseFactory = () => Promise<TestDatabase>;

/** Wraps an opened, migrated database into a `TestDatabase`. */
export function testDatabaseOver(database: AppDatabase, removeResources: () => Promise<void>): TestDatabase {
  const clock = new TestClock();
  return {
    database,
    repositories: createRepositories(database, { clock: clock.now }),
    clock,
    async cleanup() {
      await database.destroy();
      await removeResources();
    },
  };
}
