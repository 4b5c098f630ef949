import { suiteDefinitionSchema, type SuiteDefinition } from '@agentdesk/api-contract';
import type { QaSuiteRun, Repositories } from '@agentdesk/storage';
import { z } from 'zod';

/** A run as its cells need it: the run, and the definition of the suite version it runs. */
export interface RunUnderWay {
  readonly run: QaSuiteRun;
  readonly definition: SuiteDefinition;
  /** Model calls in flight per provider for this run (its option, else the server's default). */
  readonly concurrency: number;
}

const runOptionsSchema = z.object({ concurrency: z.number().int().min(1).max(64).optional() }).loose();

/** Runs whose cells this replica executes are few at a time; more than this are read again. */
const MAX_REMEMBERED_RUNS = 32;

/**
 * Reads each run's definition once per replica (a version never changes), so a cell costs no
 * extra reads. The run's status in here is not refreshed: whether a cell may still run is decided
 * by claiming it.
 */
export class RunDirectory {
  private readonly runs = new Map<string, Promise<RunUnderWay>>();

  constructor(
    private readonly repositories: Pick<Repositories, 'qaRuns' | 'qaSuites'>,
    private readonly defaultConcurrency: number,
  ) {}

  get(runId: string): Promise<RunUnderWay> {
    const known = this.runs.get(runId);
    if (known !== undefined) return known;
    const loading = this.load(runId);
    // A failed read is not remembered: the next cell tries again.
    loading.catch(() => this.runs.delete(runId));
    if (this.runs.size >= MAX_REMEMBERED_RUNS) {
      const oldest = this.runs.keys().next().value;
      if (oldest !== undefined) this.runs.delete(oldest);
    }
    this.runs.set(runId, loading);
    return loading;
  }

  private async load(runId: string): Promise<RunUnderWay> {
    const run = await this.repositories.qaRuns.get(runId);
    const version = await this.repositories.qaSuites.version(run.suiteId, run.suiteVersion);
    const definition = suiteDefinitionSchema.parse(version.definition);
    const options = runOptionsSchema.safeParse(run.options);
    return {
      run,
      definition,
      concurrency: (options.success ? options.data.concurrency : undefined) ?? this.defaultConcurrency,
    };
  }
}
