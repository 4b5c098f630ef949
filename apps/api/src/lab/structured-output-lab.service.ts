import type { Principal } from '@agentdesk/authz';
import type { ChatMessage } from '@agentdesk/providers';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { ModelRouter } from '../model-access/model-router';
import { LOGGER, REPOSITORIES } from '../core/tokens';
import type { JsonObject, Page, PageRequest, Repositories } from '@agentdesk/storage';
import type { CreateRunBody } from './lab-inputs';
import { runTarget } from '../shared/structured-output/run-target';
import { toRunJson, toRunSummaryJson, type RunJson, type RunSummaryJson } from './run-json';
import { schemaNameOf } from '../shared/structured-output/schema-name';
import { toStorableJson } from '../shared/structured-output/storable-json';
import { meterLabTargets } from './meter-lab-targets';
import { UsageMeter } from '../shared/metering/usage-meter';

/**
 * The structured-output lab: one schema and prompt sent to every target at once, each answer
 * lowered, validated and reported, and the whole run stored for the console.
 */
@Injectable()
export class StructuredOutputLab {
  constructor(
    @Inject(REPOSITORIES) private readonly repositories: Repositories,
    @Inject(ModelRouter) private readonly router: ModelRouter,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(UsageMeter) private readonly usageMeter: UsageMeter,
  ) {}

  /** Runs every target concurrently; a failing target is recorded as such, the run still completes. */
  async run(actor: Principal, body: CreateRunBody): Promise<RunJson> {
    const schema = toStorableJson(body.schema) as JsonObject;
    const systemPrompt =
      body.systemPrompt === undefined || body.systemPrompt === '' ? null : body.systemPrompt;
    const messages: ChatMessage[] = [
      ...(systemPrompt === null ? [] : [{ role: 'system' as const, content: systemPrompt }]),
      { role: 'user', content: body.prompt },
    ];
    const dependencies = { router: this.router, logger: this.logger };
    const startedAt = new Date();
    const ran = await Promise.all(
      body.targets.map((target) =>
        runTarget(dependencies, {
          model: target.model,
          schema,
          schemaName: schemaNameOf(body.name),
          strict: body.strict,
          messages,
          timeoutMs: body.timeoutMs,
        }),
      ),
    );
    meterLabTargets(this.usageMeter, actor, ran);
    // Each target's cost with the price in effect now, kept with the run (a later price changes nothing).
    const results = ran.map((result) => ({
      ...result,
      costMicros: this.usageMeter.prices.costOf(result.model, {
        input: result.usage?.inputTokens ?? 0,
        output: result.usage?.outputTokens ?? 0,
        thinking: result.usage?.thinkingTokens ?? 0,
        cached: result.usage?.cachedInputTokens ?? 0,
      }).costMicros,
    }));
    const run = await this.repositories.structuredOutputRuns.create({
      actorPrincipalId: actor.id,
      name: body.name,
      schema,
      prompt: body.prompt,
      settings: toStorableJson({
        systemPrompt,
        strict: body.strict,
        timeoutMs: body.timeoutMs,
      }) as JsonObject,
      targets: body.targets.map((target) => toStorableJson({ model: target.model }) as JsonObject),
      results: results.map((result) => toStorableJson(result) as JsonObject),
      startedAt,
      finishedAt: new Date(),
    });
    const names = await this.repositories.people.namesOf([run.actorPrincipalId]);
    return { ...toRunJson(run), actorName: names.get(run.actorPrincipalId) ?? null };
  }

  /** One run, with the name of the user who ran it. */
  async get(id: string): Promise<RunJson> {
    const run = await this.repositories.structuredOutputRuns.get(id);
    const names = await this.repositories.people.namesOf([run.actorPrincipalId]);
    return { ...toRunJson(run), actorName: names.get(run.actorPrincipalId) ?? null };
  }

  /** A page of runs; who ran them is named in one read for the page. */
  async list(page: PageRequest): Promise<Page<RunSummaryJson>> {
    const runs = await this.repositories.structuredOutputRuns.list(page);
    const names = await this.repositories.people.namesOf(runs.items.map((run) => run.actorPrincipalId));
    return {
      items: runs.items.map((run) => ({
        ...toRunSummaryJson(run),
        actorName: names.get(run.actorPrincipalId) ?? null,
      })),
      nextCursor: runs.nextCursor,
    };
  }
}
