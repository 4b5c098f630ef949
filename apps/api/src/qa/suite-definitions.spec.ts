import { isStorageError, StorageErrorCode } from '@agentdesk/storage';
import { sqliteTestDatabase, type TestDatabase } from '@agentdesk/storage/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SuiteDefinitions } from './suite-definitions';

let database: TestDatabase;
let suiteId: string;

function definitionNamed(name: string, caseId: string) {
  return {
    name,
    targets: [{ model: 'gpt-test' }],
    cases: [{ id: caseId, prompt: 'p', schema: { type: 'object' } }],
  };
}

beforeAll(async () => {
  database = await sqliteTestDatabase();
  const { qaSuites } = database.repositories;
  const { suite } = await qaSuites.create({
    name: 'cached',
    description: null,
    definition: definitionNamed('cached', 'first'),
    caseCount: 1,
    targetCount: 1,
    createdBy: 'u-qa',
    note: null,
  });
  suiteId = suite.id;
  await qaSuites.saveVersion({
    suiteId: suite.id,
    baseVersion: 1,
    name: 'cached',
    description: null,
    definition: definitionNamed('cached', 'second'),
    caseCount: 1,
    targetCount: 1,
    createdBy: 'u-qa',
    note: null,
  });
});

afterAll(async () => {
  await database.cleanup();
});

describe('SuiteDefinitions', () => {
  it('reads and parses each version once, and tells versions apart', async () => {
    const read = vi.spyOn(database.repositories.qaSuites, 'version');
    const definitions = new SuiteDefinitions(database.repositories.qaSuites);
    const [first, again, second] = await Promise.all([
      definitions.get(suiteId, 1),
      definitions.get(suiteId, 1),
      definitions.get(suiteId, 2),
    ]);
    expect(first.cases[0]?.id).toBe('first');
    expect(again).toBe(first);
    expect(second.cases[0]?.id).toBe('second');
    expect(await definitions.get(suiteId, 1)).toBe(first);
    expect(read).toHaveBeenCalledTimes(2);
    read.mockRestore();
  });

  it('does not keep a failed read: a missing version stays not found, and is read again', async () => {
    const read = vi.spyOn(database.repositories.qaSuites, 'version');
    const definitions = new SuiteDefinitions(database.repositories.qaSuites);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await definitions.get(suiteId, 9).catch((caught: unknown) => caught);
      expect(isStorageError(error) && error.code === StorageErrorCode.NotFound).toBe(true);
    }
    expect(read).toHaveBeenCalledTimes(2);
    read.mockRestore();
  });

  it('keeps at most 32 versions, dropping the least recently used', async () => {
    const read = vi.spyOn(database.repositories.qaSuites, 'version');
    const definitions = new SuiteDefinitions(database.repositories.qaSuites);
    const { qaSuites } = database.repositories;
    const others: string[] = [];
    for (let index = 0; index < 32; index++) {
      const { suite } = await qaSuites.create({
        name: `other-${index}`,
        description: null,
        definition: definitionNamed(`other-${index}`, 'only'),
        caseCount: 1,
        targetCount: 1,
        createdBy: 'u-qa',
        note: null,
      });
      others.push(suite.id);
    }
    await definitions.get(suiteId, 1);
    for (const [index, other] of others.entries()) {
      await definitions.get(other, 1);
      // Used now and then: never the least recently used, so it stays in.
      if (index % 8 === 0) await definitions.get(suiteId, 1);
    }
    expect(read).toHaveBeenCalledTimes(33);
    await definitions.get(suiteId, 1);
    expect(read).toHaveBeenCalledTimes(33);
    // The first other suite was the least recently used when the 33rd version came in: read again.
    await definitions.get(others[0]!, 1);
    expect(read).toHaveBeenCalledTimes(34);
    read.mockRestore();
  });
});
