import { describe, expect, it } from 'vitest';
import type { NewStructuredOutputRun } from '../repositories/structured-output-runs-repository';
import { StorageErrorCode } from '../storage-error';
import { expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

function newRun(
  name: string,
  startedAt: number,
  overrides: Partial<NewStructuredOutputRun> = {},
): NewStructuredOutputRun {
  return {
    actorPrincipalId: 'u-viewer',
    name,
    schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    prompt: 'Say ok',
    settings: { strict: true, systemPrompt: null, timeoutMs: 60_000 },
    targets: [{ model: 'gpt-test' }, { model: 'claude-test' }],
    results: [
      {
        model: 'gpt-test',
        status: 'ok',
        json: { ok: true },
        rawOutput: '{"ok":true}',
        usage: { inputTokens: 3 },
      },
      {
        model: 'claude-test',
        status: 'error',
        error: { kind: 'provider', message: 'overloaded', status: 529 },
      },
    ],
    startedAt: new Date(startedAt),
    finishedAt: new Date(startedAt + 250),
    ...overrides,
  };
}

/** Structured-output lab runs: stored verbatim, read by id, listed newest first. */
export function describeStructuredOutputRunsContract(factory: TestDatabaseFactory): void {
  describe('structured-output runs', () => {
    const current = useTestDatabase(factory);

    it('stores a run and reads it back exactly, JSON included', async () => {
      const { repositories, clock } = current();
      const input = newRun('invoice v1', clock.now(), {
        schema: {
          type: 'object',
          $defs: { node: { type: 'string', pattern: '^[a-z]+\\d$' } },
          description: 'unicode ✓ “quotes”',
        },
        prompt: 'line one\nline two',
      });
      const created = await repositories.structuredOutputRuns.create(input);
      expect(created).toEqual({
        id: created.id,
        actorPrincipalId: 'u-viewer',
        name: 'invoice v1',
        schema: input.schema,
        prompt: 'line one\nline two',
        settings: input.settings,
        targets: input.targets,
        results: input.results,
        createdAt: input.startedAt,
        finishedAt: input.finishedAt,
      });
      expect(await repositories.structuredOutputRuns.get(created.id)).toEqual(created);
    });

    it('answers a missing run with NotFound', async () => {
      const { repositories } = current();
      await expectStorageError(
        repositories.structuredOutputRuns.get(missingId),
        StorageErrorCode.NotFound,
        'structured-output-run',
      );
    });

    it('lists newest first and walks every page with the cursor', async () => {
      const { repositories, clock } = current();
      const start = clock.now();
      const created = [];
      for (let index = 0; index < 7; index += 1) {
        // Two runs per millisecond: the id breaks ties.
        created.push(
          await repositories.structuredOutputRuns.create(
            newRun(`run ${index}`, start + Math.floor(index / 2)),
          ),
        );
      }
      const newestFirst = [...created].reverse();
      expect((await repositories.structuredOutputRuns.list()).items).toEqual(newestFirst);
      const walked = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<typeof repositories.structuredOutputRuns.list>> =
          await repositories.structuredOutputRuns.list({ limit: 3, cursor });
        walked.push(...page.items);
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(walked).toEqual(newestFirst);
      await expectStorageError(
        repositories.structuredOutputRuns.list({ cursor: 'garbage' }),
        StorageErrorCode.InvalidCursor,
        'cursor',
      );
    });
  });
}
