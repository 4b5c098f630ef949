import {
  suiteDefinitionSchema,
  type SuiteDefinition,
  type SuiteJson,
  type SuiteSummaryJson,
  type SuiteVersionJson,
} from '@agentdesk/api-contract';
import type { QaSuite, QaSuiteRun, QaSuiteVersion } from '@agentdesk/storage';

/** Who is named how: `people.namesOf`, read once per answer. */
export type PersonNames = ReadonlyMap<string, string>;

/**
 * A stored version's definition, parsed with the contract's schema (the storage edge keeps it as
 * plain JSON; every definition was validated when it was saved, so a failure here is a bug).
 */
export function definitionOf(version: QaSuiteVersion): SuiteDefinition {
  const parsed = suiteDefinitionSchema.safeParse(version.definition);
  if (!parsed.success)
    throw new Error(
      `Stored definition of suite ${version.suiteId} v${version.version} does not parse: ${parsed.error.message}`,
    );
  return parsed.data;
}

/**
 * The share of judged cells that passed: cells whose model call failed count against it (a suite
 * that cannot reach a model is not passing), cancelled and unfinished cells are not judged.
 */
export function passRateOf(run: Pick<QaSuiteRun, 'counts'>): number | null {
  const judged = run.counts.passed + run.counts.failed + run.counts.errored;
  return judged === 0 ? null : run.counts.passed / judged;
}

export function toSuiteSummaryJson(
  suite: QaSuite,
  lastRun: QaSuiteRun | undefined,
  names: PersonNames,
): SuiteSummaryJson {
  return {
    id: suite.id,
    name: suite.name,
    description: suite.description,
    latestVersion: suite.latestVersion,
    caseCount: suite.caseCount,
    targetCount: suite.targetCount,
    createdBy: suite.createdBy,
    createdByName: names.get(suite.createdBy) ?? null,
    createdAt: suite.createdAt.toISOString(),
    updatedAt: suite.updatedAt.toISOString(),
    lastRun:
      lastRun === undefined
        ? null
        : {
            id: lastRun.id,
            status: lastRun.status,
            passRate: passRateOf(lastRun),
            createdAt: lastRun.createdAt.toISOString(),
          },
  };
}

export function toSuiteVersionJson(version: QaSuiteVersion, names: PersonNames): SuiteVersionJson {
  return {
    suiteId: version.suiteId,
    version: version.version,
    definition: definitionOf(version),
    createdBy: version.createdBy,
    createdByName: names.get(version.createdBy) ?? null,
    createdAt: version.createdAt.toISOString(),
    note: version.note,
  };
}

/** A suite with its latest version whole and every version's header (newest first). */
export function toSuiteJson(
  suite: QaSuite,
  versions: readonly QaSuiteVersion[],
  lastRun: QaSuiteRun | undefined,
  names: PersonNames,
): SuiteJson {
  const current = versions.find((version) => version.version === suite.latestVersion);
  if (current === undefined) throw new Error(`Suite ${suite.id} has no version ${suite.latestVersion}`);
  return {
    ...toSuiteSummaryJson(suite, lastRun, names),
    current: toSuiteVersionJson(current, names),
    versions: versions.map((version) => ({
      version: version.version,
      createdBy: version.createdBy,
      createdAt: version.createdAt.toISOString(),
      note: version.note,
    })),
  };
}
