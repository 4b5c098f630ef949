import { can, type Principal } from '@agentdesk/authz';
import {
  suiteDefinitionSchema,
  type SuiteDefinition,
  type SuiteJson,
  type SuiteSummaryJson,
  type SuiteVersionJson,
  type UnsupportedPartJson,
} from '@agentdesk/api-contract';
import { caseFromLabRun, serializeSuite } from '@agentdesk/qa-suites';
import {
  isStorageError,
  StorageErrorCode,
  type JsonObject,
  type Page,
  type PageRequest,
  type QaSuite,
  type QaSuiteRun,
  type Repositories,
} from '@agentdesk/storage';
import { Inject, Injectable } from '@nestjs/common';
import { REPOSITORIES } from '../core/tokens';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import type { CasesFromLabBody } from './qa-inputs';
import { checkedDefinition, definitionRefused } from './suite-file-input';
import { toSuiteJson, toSuiteSummaryJson, toSuiteVersionJson, definitionOf } from './suite-json';

/** A suite file to download. */
export interface SuiteFile {
  readonly fileName: string;
  readonly contentType: string;
  readonly text: string;
}

const contentTypes = {
  yaml: 'application/yaml; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

/** A file name from a suite's name: letters, digits, `-` and `_` only (it goes in a header). */
function fileNameOf(name: string, version: number, format: 'yaml' | 'json'): string {
  const stem =
    name
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'suite';
  return `${stem}.v${version}.suite.${format}`;
}

/** What a new or saved version stores beside its definition. */
function versionFields(definition: SuiteDefinition) {
  return {
    name: definition.name,
    description: definition.description ?? null,
    // Checked storable on the way in (the input pipe, or the file import's own check): a plain JSON copy.
    definition: JSON.parse(JSON.stringify(definition)) as JsonObject,
    caseCount: definition.cases.length,
    targetCount: definition.targets.length,
  };
}

/**
 * QA suites: versioned definitions (targets × cases), created, edited, imported and exported.
 * Every save is a new version edited from the latest one (a stale base is a 409), so a run always
 * points at the exact definition it ran.
 */
@Injectable()
export class QaSuites {
  constructor(@Inject(REPOSITORIES) private readonly repositories: Repositories) {}

  /** A page of suites, newest first, each with its last run; or the one suite of an exact name. */
  async list(query: PageRequest & { name?: string | undefined }): Promise<Page<SuiteSummaryJson>> {
    const page: Page<QaSuite> =
      query.name === undefined
        ? await this.repositories.qaSuites.list(query)
        : await this.repositories.qaSuites
            .findByName(query.name)
            .then((suite) => ({ items: suite === undefined ? [] : [suite], nextCursor: null }));
    const [lastRuns, names] = await Promise.all([
      this.repositories.qaRuns.latestOfSuites(page.items.map((suite) => suite.id)),
      this.repositories.people.namesOf(page.items.map((suite) => suite.createdBy)),
    ]);
    return {
      items: page.items.map((suite) => toSuiteSummaryJson(suite, lastRuns.get(suite.id), names)),
      nextCursor: page.nextCursor,
    };
  }

  /** One suite: its latest version whole, every version's header. */
  async get(id: string): Promise<SuiteJson> {
    const suite = await this.repositories.qaSuites.get(id);
    return this.suiteJson(suite);
  }

  async create(principal: Principal, definition: SuiteDefinition, note: string | null): Promise<SuiteJson> {
    checkedDefinition(definition);
    await this.refuseTakenName(definition.name, null);
    // A race lost to another writer is the storage's conflict, a 409 as well.
    const saved = await this.repositories.qaSuites.create({
      ...versionFields(definition),
      createdBy: principal.id,
      note,
    });
    return this.suiteJson(saved.suite);
  }

  /** A new version of a suite, edited from `baseVersion` (which must still be the latest). */
  async save(
    principal: Principal,
    id: string,
    input: { definition: SuiteDefinition; baseVersion: number; note: string | null },
  ): Promise<SuiteJson> {
    checkedDefinition(input.definition);
    const suite = await this.repositories.qaSuites.get(id);
    refuseStaleBase(suite, input.baseVersion);
    await this.refuseTakenName(input.definition.name, suite.id);
    const saved = await this.repositories.qaSuites.saveVersion({
      ...versionFields(input.definition),
      suiteId: suite.id,
      baseVersion: input.baseVersion,
      createdBy: principal.id,
      note: input.note,
    });
    return this.suiteJson(saved.suite);
  }

  /** A new suite from a file (already parsed), with what an import could not carry over. */
  async importNew(
    principal: Principal,
    file: { definition: SuiteDefinition; unsupported: UnsupportedPartJson[] },
    note: string | null,
  ): Promise<{ suite: SuiteJson; unsupported: UnsupportedPartJson[] }> {
    return { suite: await this.create(principal, file.definition, note), unsupported: file.unsupported };
  }

  /** A file (already parsed) as a suite's next version. */
  async importInto(
    principal: Principal,
    id: string,
    file: { definition: SuiteDefinition; unsupported: UnsupportedPartJson[] },
    input: { baseVersion: number; note: string | null },
  ): Promise<{ suite: SuiteJson; unsupported: UnsupportedPartJson[] }> {
    const suite = await this.save(principal, id, { definition: file.definition, ...input });
    return { suite, unsupported: file.unsupported };
  }

  async version(id: string, version: number): Promise<SuiteVersionJson> {
    const stored = await this.versionOf(id, version);
    const names = await this.repositories.people.namesOf([stored.createdBy]);
    return toSuiteVersionJson(stored, names);
  }

  /** A version (the latest when absent) as a suite file that imports back to the same definition. */
  async export(id: string, format: 'yaml' | 'json', version: number | undefined): Promise<SuiteFile> {
    const suite = await this.repositories.qaSuites.get(id);
    const stored = await this.versionOf(suite.id, version ?? suite.latestVersion);
    return {
      fileName: fileNameOf(suite.name, stored.version, format),
      contentType: contentTypes[format],
      text: serializeSuite(definitionOf(stored), format),
    };
  }

  /** A lab run's schema, prompt and system prompt as a new case at the end of the suite (a new version). */
  async addCaseFromLab(principal: Principal, id: string, body: CasesFromLabBody): Promise<SuiteJson> {
    // The route needs suites:write; reading a lab run also needs the lab's own read scope.
    if (!can(principal, 'lab:read'))
      throw new ApiError(ApiErrorCode.Forbidden, 'Saving a lab run as a case also needs the lab:read scope');
    const suite = await this.repositories.qaSuites.get(id);
    refuseStaleBase(suite, body.baseVersion);
    const labRun = await this.repositories.structuredOutputRuns.get(body.labRunId).catch((error: unknown) => {
      throw isStorageError(error) && error.code === StorageErrorCode.NotFound
        ? new ApiError(ApiErrorCode.NotFound, `Lab run ${body.labRunId} not found`)
        : error;
    });
    const definition = definitionOf(await this.versionOf(suite.id, suite.latestVersion));
    if (definition.cases.some((existing) => existing.id === body.caseId))
      throw new ApiError(
        ApiErrorCode.Conflict,
        `body.caseId: the suite already has a case "${body.caseId}"; choose another id`,
      );
    const systemPrompt = labRun.settings['systemPrompt'];
    const added = caseFromLabRun(
      {
        name: labRun.name,
        schema: labRun.schema,
        prompt: labRun.prompt,
        systemPrompt: typeof systemPrompt === 'string' && systemPrompt !== '' ? systemPrompt : null,
      },
      body.caseId,
    );
    const next = suiteDefinitionSchema.safeParse({ ...definition, cases: [...definition.cases, added] });
    if (!next.success)
      throw definitionRefused(
        next.error.issues.map((issue) => ({
          path: issue.path.map(String).join('.'),
          message: issue.message,
        })),
      );
    return this.save(principal, suite.id, {
      definition: next.data,
      baseVersion: body.baseVersion,
      note: body.note ?? `Case "${body.caseId}" from lab run "${labRun.name}"`,
    });
  }

  /** One version of a suite, with a 404 that says which. */
  async versionOf(suiteId: string, version: number) {
    return this.repositories.qaSuites.version(suiteId, version).catch((error: unknown) => {
      throw isStorageError(error) && error.code === StorageErrorCode.NotFound
        ? new ApiError(ApiErrorCode.NotFound, `Suite ${suiteId} has no version ${version}`)
        : error;
    });
  }

  private async suiteJson(suite: QaSuite): Promise<SuiteJson> {
    const [versions, lastRun] = await Promise.all([
      this.repositories.qaSuites.versions(suite.id),
      this.lastRunOf(suite.id),
    ]);
    const names = await this.repositories.people.namesOf([
      suite.createdBy,
      ...versions.map((version) => version.createdBy),
    ]);
    return toSuiteJson(suite, versions, lastRun, names);
  }

  private async lastRunOf(suiteId: string): Promise<QaSuiteRun | undefined> {
    return (await this.repositories.qaRuns.listForSuite(suiteId, { limit: 1 })).items[0];
  }

  /** Names are unique among suites: say so before trying (the storage's conflict covers a race). */
  private async refuseTakenName(name: string, suiteId: string | null): Promise<void> {
    const holder = await this.repositories.qaSuites.findByName(name);
    if (holder !== undefined && holder.id !== suiteId) throw nameTaken(name);
  }
}

function nameTaken(name: string): ApiError {
  return new ApiError(
    ApiErrorCode.Conflict,
    `body.definition.name: a suite named "${name}" already exists; choose another name`,
  );
}

function refuseStaleBase(suite: QaSuite, baseVersion: number): void {
  if (baseVersion !== suite.latestVersion)
    throw new ApiError(
      ApiErrorCode.Conflict,
      `body.baseVersion: the suite is at version ${suite.latestVersion}, not ${baseVersion}: someone saved it since you loaded it; reload, re-apply your change and save again`,
    );
}
