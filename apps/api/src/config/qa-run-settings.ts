import { z } from 'zod';
import { wholeNumberVariable } from './environment-values';

/** How QA suite runs execute their cells (`apps/api/src/qa/run-engine`). */
export interface QaRunSettings {
  /** Model calls in flight per provider per run on each replica, when the run does not say. */
  readonly concurrencyPerProvider: number;
  /** Cells one replica holds at once (claimed, waiting for a provider slot or running). */
  readonly cellsInFlight: number;
  /**
   * How long a claimed cell stays claimed without a heartbeat (renewed every third of it): a
   * replica that dies frees its cells for the others after it.
   */
  readonly cellLeaseMs: number;
  /** PostgreSQL schema of pg-boss's tables (the cell queue on PostgreSQL). */
  readonly pgBossSchema: string;
}

export const defaultQaRunSettings: QaRunSettings = {
  concurrencyPerProvider: 8,
  cellsInFlight: 64,
  cellLeaseMs: 15_000,
  pgBossSchema: 'pgboss',
};

/** The environment variables of the QA run settings, with their meaning (also used in error messages). */
export const qaRunEnvironment = {
  AGENTDESK_QA_CONCURRENCY:
    'model calls in flight per provider per QA suite run on each replica, unless the run asks for another number',
  AGENTDESK_QA_CELLS_IN_FLIGHT: 'QA suite cells one replica holds at once',
  AGENTDESK_QA_CELL_LEASE_MS:
    'milliseconds a claimed QA suite cell stays claimed without a heartbeat (a dead replica’s cells move on after it)',
  AGENTDESK_QA_PGBOSS_SCHEMA: 'PostgreSQL schema of the pg-boss tables that queue QA suite cells',
} as const;

type QaRunVariable = keyof typeof qaRunEnvironment;

const environmentSchema = z.object({
  AGENTDESK_QA_CONCURRENCY: wholeNumberVariable(1, 64),
  AGENTDESK_QA_CELLS_IN_FLIGHT: wholeNumberVariable(1, 1_000),
  // A second at least, so heartbeats (every third) are not a database storm; ten minutes at most,
  // so a dead replica's cells never wait long.
  AGENTDESK_QA_CELL_LEASE_MS: wholeNumberVariable(1_000, 600_000),
  AGENTDESK_QA_PGBOSS_SCHEMA: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_]{0,49}$/, {
      error: 'must be 1–50 lower-case letters, digits or "_", not starting with a digit',
    })
    .optional(),
});

/** Reads the QA run variables; each problem names its variable. */
export function readQaRunSettings(
  environment: Readonly<Record<string, string | undefined>>,
): { settings: QaRunSettings; problems: [] } | { settings: undefined; problems: string[] } {
  const input = Object.fromEntries(
    Object.keys(qaRunEnvironment).map((name) => {
      const value = environment[name];
      return [name, value === undefined || value.trim() === '' ? undefined : value];
    }),
  );
  const parsed = environmentSchema.safeParse(input);
  if (!parsed.success) {
    return {
      settings: undefined,
      problems: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]) as QaRunVariable;
        return `${name} (${qaRunEnvironment[name]}): ${issue.message}`;
      }),
    };
  }
  const values = parsed.data;
  return {
    problems: [],
    settings: {
      concurrencyPerProvider: values.AGENTDESK_QA_CONCURRENCY ?? defaultQaRunSettings.concurrencyPerProvider,
      cellsInFlight: values.AGENTDESK_QA_CELLS_IN_FLIGHT ?? defaultQaRunSettings.cellsInFlight,
      cellLeaseMs: values.AGENTDESK_QA_CELL_LEASE_MS ?? defaultQaRunSettings.cellLeaseMs,
      pgBossSchema: values.AGENTDESK_QA_PGBOSS_SCHEMA ?? defaultQaRunSettings.pgBossSchema,
    },
  };
}
