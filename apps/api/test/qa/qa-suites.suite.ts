import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteJson, SuiteRunJson, SuiteSummaryJson, SuiteVersionJson } from '@agentdesk/api-contract';
import type { Engine } from '../support/engines';
import {
  createLocalUser,
  issuePortalKey,
  issueUserKey,
  missingId,
  type IssuedKey,
} from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/test-api';
import { suitesUrl, ticketSchema, ticketSuite } from './qa-fixtures';

interface ErrorBody {
  error: { code: string; message: string };
}

/** QA suites over HTTP: versions, imports and exports, lab runs as cases, who may do what, bad input. */
export function describeQaSuites(engine: Engine): void {
  describe(`QA suites (${engine})`, () => {
    let test: TestApi;
    let qaKey: IssuedKey;
    let viewerKey: IssuedKey;
    let userKey: IssuedKey;
    let portalKey: IssuedKey;
    let adminKey: IssuedKey;

    beforeAll(async () => {
      test = await startTestApi(engine);
      const repositories = test.api.repositories;
      qaKey = await issueUserKey(repositories, await createLocalUser(repositories, 'Quinn QA'), 'qa');
      viewerKey = await issueUserKey(
        repositories,
        await createLocalUser(repositories, 'Vera Viewer'),
        'viewer',
      );
      userKey = await issueUserKey(repositories, await createLocalUser(repositories, 'Uma User'));
      adminKey = await issueUserKey(repositories, await createLocalUser(repositories, 'Ada Admin'), 'admin');
      portalKey = await issuePortalKey(repositories, 'shop', true);
    });
    afterAll(async () => {
      await test?.close();
    });

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, key: IssuedKey = qaKey) =>
      test.request({ method, url, key: key.key, ...(body === undefined ? {} : { body }) });
    const create = async (name: string, overrides: Record<string, unknown> = {}): Promise<SuiteJson> => {
      const response = await call('POST', suitesUrl, {
        definition: ticketSuite(name, overrides),
        note: 'first',
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<SuiteJson>();
    };
    const messageOf = (response: { json: <T>() => T }): string => response.json<ErrorBody>().error.message;

    it('creates a suite as version 1, with defaults filled in and its author named', async () => {
      const suite = await create('Ticket triage');
      expect(suite).toMatchObject({
        name: 'Ticket triage',
        description: 'Support-ticket triage',
        latestVersion: 1,
        caseCount: 3,
        targetCount: 2,
        createdByName: 'Quinn QA',
        lastRun: null,
        current: { version: 1, note: 'first', createdByName: 'Quinn QA' },
        versions: [{ version: 1, note: 'first' }],
      });
      // The stored definition is the parsed one: defaults (strict, timeout, no assertions) written out.
      expect(suite.current.definition.targets[0]).toEqual({ model: 'gpt-test', strict: true });
      expect(suite.current.definition.timeoutMs).toBe(60_000);
      expect(suite.current.definition.cases[0]?.schema).toEqual(ticketSchema);
      const read = await call('GET', `${suitesUrl}/${suite.id}`, undefined, viewerKey);
      expect(read.statusCode).toBe(200);
      expect(read.json<SuiteJson>()).toEqual(suite);
    });

    it('saves an edit as version 2, keeps version 1 whole, and refuses a save from a stale version (409)', async () => {
      const suite = await create('Versioned');
      const edited = ticketSuite('Versioned', { description: 'Now with a fourth case' });
      (edited['cases'] as unknown[]).push({ id: 'fourth', prompt: 'Fourth', schema: ticketSchema });
      const saved = await call('PUT', `${suitesUrl}/${suite.id}`, {
        definition: edited,
        baseVersion: 1,
        note: 'add a case',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<SuiteJson>()).toMatchObject({
        latestVersion: 2,
        caseCount: 4,
        description: 'Now with a fourth case',
        current: { version: 2, note: 'add a case' },
        versions: [{ version: 2 }, { version: 1 }],
      });

      const first = await call('GET', `${suitesUrl}/${suite.id}/versions/1`);
      expect(first.statusCode).toBe(200);
      expect(first.json<SuiteVersionJson>().definition.cases.map((c) => c.id)).toEqual([
        'refund',
        'crash',
        'hello',
      ]);

      const stale = await call('PUT', `${suitesUrl}/${suite.id}`, { definition: edited, baseVersion: 1 });
      expect(stale.statusCode).toBe(409);
      expect(messageOf(stale)).toMatch(/^body\.baseVersion: the suite is at version 2, not 1/);
      expect((await call('GET', `${suitesUrl}/${suite.id}`)).json<SuiteJson>().latestVersion).toBe(2);

      expect((await call('GET', `${suitesUrl}/${suite.id}/versions/3`)).statusCode).toBe(404);
      expect(messageOf(await call('GET', `${suitesUrl}/${suite.id}/versions/3`))).toBe(
        `Suite ${suite.id} has no version 3`,
      );
    });

    it('a run points at the version it ran, not the latest', async () => {
      const suite = await create('Pinned runs');
      await call('PUT', `${suitesUrl}/${suite.id}`, {
        definition: ticketSuite('Pinned runs', {
          cases: [{ id: 'only', prompt: 'x', schema: ticketSchema }],
        }),
        baseVersion: 1,
      });
      const started = await call('POST', `${suitesUrl}/${suite.id}/runs`, { version: 1, concurrency: 2 });
      expect(started.statusCode, started.body).toBe(201);
      const run = started.json<SuiteRunJson>();
      expect(run).toMatchObject({
        suiteId: suite.id,
        suiteName: 'Pinned runs',
        suiteVersion: 1,
        status: 'running',
      });
      expect(run.counts.total).toBe(6);
      expect(run.cases.map((c) => c.id)).toEqual(['refund', 'crash', 'hello']);
      expect(run.cells).toHaveLength(6);
      const latest = await call('POST', `${suitesUrl}/${suite.id}/runs`);
      expect(latest.statusCode, latest.body).toBe(201);
      expect(latest.json<SuiteRunJson>()).toMatchObject({ suiteVersion: 2, counts: { total: 2 } });
      expect((await call('POST', `${suitesUrl}/${suite.id}/runs`, { version: 9 })).statusCode).toBe(404);
    });

    it('refuses a second suite of the same name, and a rename onto another suite’s name (409)', async () => {
      await create('Unique name');
      const other = await create('Other name');
      const again = await call('POST', suitesUrl, { definition: ticketSuite('Unique name') });
      expect(again.statusCode).toBe(409);
      expect(messageOf(again)).toContain('a suite named "Unique name" already exists');
      const rename = await call('PUT', `${suitesUrl}/${other.id}`, {
        definition: ticketSuite('Unique name'),
        baseVersion: 1,
      });
      expect(rename.statusCode).toBe(409);
      // Keeping one's own name is no conflict.
      const keep = await call('PUT', `${suitesUrl}/${other.id}`, {
        definition: ticketSuite('Other name'),
        baseVersion: 1,
      });
      expect(keep.statusCode).toBe(200);
    });

    it('lists suites newest first with their last run, and finds one by its exact name', async () => {
      const listed = await call('GET', `${suitesUrl}?limit=2`, undefined, viewerKey);
      expect(listed.statusCode).toBe(200);
      const page = listed.json<{ items: SuiteSummaryJson[]; nextCursor: string | null }>();
      expect(page.items).toHaveLength(2);
      expect(page.nextCursor).not.toBeNull();
      const next = await call('GET', `${suitesUrl}?limit=2&cursor=${page.nextCursor}`);
      expect(next.json<{ items: SuiteSummaryJson[] }>().items[0]?.id).not.toBe(page.items[1]?.id);

      const byName = await call('GET', `${suitesUrl}?name=${encodeURIComponent('Pinned runs')}`);
      const found = byName.json<{ items: SuiteSummaryJson[] }>().items;
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ name: 'Pinned runs', lastRun: { status: expect.any(String) } });
      expect((await call('GET', `${suitesUrl}?name=nobody`)).json<{ items: unknown[] }>().items).toEqual([]);
    });

    it('imports YAML and JSON files; a file that does not parse or breaks the format is a 400 listing each problem', async () => {
      const yaml = [
        'name: From YAML',
        'targets:',
        '  - model: gpt-test',
        'cases:',
        '  - id: one',
        '    prompt: Say hello',
        '    schema: { type: object, properties: { greeting: { type: string } }, required: [greeting] }',
        '    assertions:',
        '      - { kind: matches, pointer: /greeting, pattern: "^[Hh]ello" }',
      ].join('\n');
      const fromYaml = await call('POST', `${suitesUrl}/import`, { format: 'yaml', text: yaml });
      expect(fromYaml.statusCode, fromYaml.body).toBe(201);
      expect(fromYaml.json<{ suite: SuiteJson; unsupported: unknown[] }>()).toMatchObject({
        suite: { name: 'From YAML', latestVersion: 1, caseCount: 1 },
        unsupported: [],
      });

      const fromJson = await call('POST', `${suitesUrl}/import`, {
        format: 'json',
        text: JSON.stringify(ticketSuite('From JSON')),
      });
      expect(fromJson.statusCode, fromJson.body).toBe(201);

      const broken = await call('POST', `${suitesUrl}/import`, {
        format: 'yaml',
        text: 'name: [unclosed\ncases: 1',
      });
      expect(broken.statusCode).toBe(400);
      expect(messageOf(broken)).toMatch(/^body\.text: the suite file has/);
      expect(messageOf(broken)).toMatch(/line \d+/);

      const wrong = yaml.replace('id: one', 'id: "no spaces allowed"').replace('/greeting', 'greeting');
      const refused = await call('POST', `${suitesUrl}/import`, { format: 'yaml', text: wrong });
      expect(refused.statusCode).toBe(400);
      expect(messageOf(refused)).toContain('cases[0].id (line 5)');
      expect(messageOf(refused)).toContain('cases[0].assertions[0].pointer');
    });

    it('refuses a value nested more than 100 levels — in a saved definition, an imported YAML, JSON or promptfoo file — with a 400 naming where, and stores nothing', async () => {
      const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
      const before = (await call('GET', suitesUrl)).json<{ items: unknown[] }>().items.length;
      const definition = ticketSuite('Too deep') as { cases: { assertions?: unknown[] }[] };
      definition.cases[0]!.assertions = [{ kind: 'equals', pointer: '/priority', value: 'DEEP' }];
      // Sent as text: the test's own JSON.stringify would overflow on the value, as the API's did.
      const body = JSON.stringify({ definition, note: 'deep' }).replace('"DEEP"', nested(5_000));
      const saved = await call('POST', suitesUrl, body);
      expect(saved.statusCode, saved.body).toBe(400);
      expect(messageOf(saved)).toMatch(
        /^body\.definition\.cases\.0\.assertions\.0\.value\.0\.0…: arrays and objects are nested more than 100 levels deep/,
      );
      const files = [
        { format: 'yaml', text: `name: deep\ntargets: [{ model: gpt-test }]\ncases: ${nested(20_000)}` },
        { format: 'json', text: `{"name": "deep", "cases": ${nested(5_000)}}` },
        {
          format: 'promptfoo',
          text: [
            'prompts: [Say hello]',
            'providers: [openai:gpt-test]',
            'tests:',
            `  - assert: [{ type: equals, value: '${nested(300)}' }]`,
          ].join('\n'),
        },
      ];
      for (const file of files) {
        const imported = await call('POST', `${suitesUrl}/import`, file);
        expect(imported.statusCode, `${file.format}: ${imported.body}`).toBe(400);
        expect(messageOf(imported), file.format).toMatch(/^body\.text: the suite file has/);
        expect(messageOf(imported), file.format).toContain('nested more than 100 levels deep');
        expect(messageOf(imported), file.format).not.toMatch(/call stack/i);
      }
      expect((await call('GET', suitesUrl)).json<{ items: unknown[] }>().items).toHaveLength(before);
    });

    it('imports a promptfoo file, listing what it could not carry over', async () => {
      const promptfoo = [
        'description: Review summary',
        'prompts:',
        '  - "Summarize: {{review}}"',
        'providers:',
        '  - openai:gpt-test',
        '  - id: anthropic:messages:claude-test',
        'defaultTest:',
        '  options:',
        '    response_format:',
        '      type: json_schema',
        '      json_schema:',
        '        name: summary',
        '        schema: { type: object, properties: { summary: { type: string } }, required: [summary] }',
        'tests:',
        '  - vars: { review: "Great phone" }',
        '    assert:',
        '      - type: is-json',
        '      - type: llm-rubric',
        '        value: is concise',
      ].join('\n');
      const imported = await call('POST', `${suitesUrl}/import`, { format: 'promptfoo', text: promptfoo });
      expect(imported.statusCode, imported.body).toBe(201);
      const body = imported.json<{
        suite: SuiteJson;
        unsupported: Array<{ path: string; reason: string }>;
      }>();
      expect(body.suite.caseCount).toBe(1);
      expect(body.suite.targetCount).toBe(2);
      // The model-graded assertion has no counterpart in a suite: listed, not dropped silently.
      expect(
        body.unsupported.some(
          (part) => part.path.includes('tests[0].assert[1]') || part.reason.includes('llm-rubric'),
        ),
        JSON.stringify(body.unsupported),
      ).toBe(true);
    });

    it('exports a version as a YAML or JSON attachment that imports back to the same definition', async () => {
      const suite = await create('Round trip', {
        cases: [
          {
            id: 'everything',
            description: 'Every kind',
            systemPrompt: 'Be exact.',
            prompt: 'Text with "quotes", # hashes and: colons',
            schema: ticketSchema,
            assertions: [
              { kind: 'equals', pointer: '/category', value: 'billing', label: 'billing' },
              { kind: 'one-of', pointer: '/urgent', values: [true, false] },
              { kind: 'matches', pointer: '/category', pattern: '^b', flags: 'i' },
              { kind: 'range', pointer: '/n', min: 0, max: 10 },
              { kind: 'length', pointer: '/category', min: 1 },
              { kind: 'latency', maxMs: 5000 },
              { kind: 'cost', maxUsd: 0.01 },
              { kind: 'javascript', code: 'return output.category.length > 2;' },
            ],
          },
        ],
      });
      for (const format of ['yaml', 'json'] as const) {
        const latest = (await call('GET', `${suitesUrl}/${suite.id}`)).json<SuiteJson>();
        const exported = await call(
          'GET',
          `${suitesUrl}/${suite.id}/export?format=${format}`,
          undefined,
          viewerKey,
        );
        expect(exported.statusCode).toBe(200);
        expect(exported.headers['content-type']).toBe(`application/${format}; charset=utf-8`);
        expect(exported.headers['content-disposition']).toBe(
          `attachment; filename="Round-trip.v${latest.latestVersion}.suite.${format}"`,
        );
        const parsed =
          format === 'yaml' ? (parseYaml(exported.body) as unknown) : (JSON.parse(exported.body) as unknown);
        expect(parsed).toMatchObject({ name: 'Round trip' });
        const reimported = await call('POST', `${suitesUrl}/${suite.id}/import`, {
          format,
          text: exported.body,
          baseVersion: latest.latestVersion,
        });
        expect(reimported.statusCode, reimported.body).toBe(200);
        const after = reimported.json<{ suite: SuiteJson }>().suite;
        expect(after.latestVersion).toBe(latest.latestVersion + 1);
        expect(after.current.definition).toEqual(suite.current.definition);
      }
      const older = await call('GET', `${suitesUrl}/${suite.id}/export?format=json&version=1`);
      expect(older.headers['content-disposition']).toContain('Round-trip.v1.suite.json');
      expect((await call('GET', `${suitesUrl}/${suite.id}/export?format=xml`)).statusCode).toBe(400);
      expect((await call('GET', `${suitesUrl}/${suite.id}/export?version=7`)).statusCode).toBe(404);
    });

    it('saves a lab run as a new case of a suite (a new version)', async () => {
      const suite = await create('From the lab');
      const lab = await call('POST', '/v1/admin/structured-output/runs', {
        name: 'Ticket probe',
        schema: ticketSchema,
        prompt: 'My invoice is wrong',
        systemPrompt: 'Classify the ticket.',
        targets: [{ model: 'gpt-test' }],
      });
      expect(lab.statusCode, lab.body).toBe(201);
      const labRunId = lab.json<{ id: string }>().id;
      const added = await call('POST', `${suitesUrl}/${suite.id}/cases-from-lab`, {
        labRunId,
        caseId: 'invoice-wrong',
        baseVersion: 1,
      });
      expect(added.statusCode, added.body).toBe(200);
      const saved = added.json<SuiteJson>();
      expect(saved.latestVersion).toBe(2);
      expect(saved.current.note).toBe('Case "invoice-wrong" from lab run "Ticket probe"');
      expect(saved.current.definition.cases.at(-1)).toEqual({
        id: 'invoice-wrong',
        description: 'From the lab run "Ticket probe"',
        systemPrompt: 'Classify the ticket.',
        prompt: 'My invoice is wrong',
        schema: ticketSchema,
        assertions: [],
      });

      const twice = await call('POST', `${suitesUrl}/${suite.id}/cases-from-lab`, {
        labRunId,
        caseId: 'invoice-wrong',
        baseVersion: 2,
      });
      expect(twice.statusCode).toBe(409);
      expect(messageOf(twice)).toContain('already has a case "invoice-wrong"');
      const missing = await call('POST', `${suitesUrl}/${suite.id}/cases-from-lab`, {
        labRunId: missingId,
        caseId: 'x',
        baseVersion: 2,
      });
      expect(missing.statusCode).toBe(404);
      expect(messageOf(missing)).toBe(`Lab run ${missingId} not found`);
      const stale = await call('POST', `${suitesUrl}/${suite.id}/cases-from-lab`, {
        labRunId,
        caseId: 'y',
        baseVersion: 1,
      });
      expect(stale.statusCode).toBe(409);
    });

    it('lets qa and admin keys do everything, viewers only read, and refuses user and portal keys (403) and no key (401)', async () => {
      const suite = await create('Scopes');
      const reads = [
        `${suitesUrl}`,
        `${suitesUrl}/${suite.id}`,
        `${suitesUrl}/${suite.id}/versions/1`,
        `${suitesUrl}/${suite.id}/export`,
        `${suitesUrl}/${suite.id}/runs`,
      ];
      for (const url of reads) {
        for (const key of [qaKey, viewerKey, adminKey])
          expect((await call('GET', url, undefined, key)).statusCode, url).toBe(200);
        for (const key of [userKey, portalKey])
          expect((await call('GET', url, undefined, key)).statusCode, url).toBe(403);
        expect((await test.request({ method: 'GET', url })).statusCode, url).toBe(401);
      }
      const writes: Array<[string, unknown]> = [
        [suitesUrl, { definition: ticketSuite('Scopes by viewer') }],
        [`${suitesUrl}/import`, { format: 'json', text: JSON.stringify(ticketSuite('Scopes import')) }],
        [`${suitesUrl}/${suite.id}/runs`, {}],
      ];
      for (const [url, body] of writes) {
        for (const key of [viewerKey, userKey, portalKey])
          expect((await call('POST', url, body, key)).statusCode, url).toBe(403);
        expect((await test.request({ method: 'POST', url, body })).statusCode, url).toBe(401);
      }
      const byAdmin = await call('POST', suitesUrl, { definition: ticketSuite('Scopes by admin') }, adminKey);
      expect(byAdmin.statusCode).toBe(201);
      expect(
        (
          await call(
            'PUT',
            `${suitesUrl}/${suite.id}`,
            { definition: ticketSuite('Scopes'), baseVersion: 1 },
            viewerKey,
          )
        ).statusCode,
      ).toBe(403);
    });

    it('audits every change with what it changed', async () => {
      const suite = await create('Audited');
      await call('PUT', `${suitesUrl}/${suite.id}`, { definition: ticketSuite('Audited'), baseVersion: 1 });
      const records = await test.api.repositories.audit.list({ action: 'qa.suite.save' });
      expect(records.items[0]).toMatchObject({
        outcome: 'succeeded',
        target: { kind: 'qa-suite', id: suite.id },
        details: { name: 'Audited', version: 2, cases: 3, targets: 2 },
      });
      const created = await test.api.repositories.audit.list({ action: 'qa.suite.create' });
      expect(created.items.some((entry) => entry.target?.id === suite.id)).toBe(true);
    });

    it('answers bad input with a 400 naming the field, and unknown ids with a 404', async () => {
      const suite = await create('Bad input');
      const cases = [
        [{ definition: ticketSuite('x'), extra: 1 }, 'body.extra: unknown field'],
        [{ definition: ticketSuite('x', { targets: [] }) }, 'body.definition.targets'],
        [
          {
            definition: ticketSuite('x', {
              cases: [
                {
                  id: 'a',
                  prompt: 'p',
                  schema: ticketSchema,
                  assertions: [{ kind: 'equals', pointer: 'nope', value: 1 }],
                },
              ],
            }),
          },
          'body.definition.cases.0.assertions.0.pointer',
        ],
        [
          {
            definition: ticketSuite('x', {
              cases: [{ id: 'a', prompt: 'p', schema: { type: 'no-such-type' } }],
            }),
          },
          'body.definition.cases[0].schema',
        ],
        [
          {
            definition: ticketSuite('x', {
              cases: [
                {
                  id: 'a',
                  prompt: 'p',
                  schema: ticketSchema,
                  assertions: [{ kind: 'matches', pointer: '', pattern: '(' }],
                },
              ],
            }),
          },
          'body.definition.cases.0.assertions.0.pattern',
        ],
        [
          { definition: ticketSuite('x', { cases: [{ id: 'a', schema: ticketSchema }] }) },
          'body.definition.cases.0.prompt',
        ],
      ] as const;
      for (const [body, field] of cases) {
        const response = await call('POST', suitesUrl, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(messageOf(response)).toContain(field);
      }
      expect(
        messageOf(await call('PUT', `${suitesUrl}/${suite.id}`, { definition: ticketSuite('Bad input') })),
      ).toContain('body.baseVersion');
      expect((await call('GET', `${suitesUrl}/not-an-id`)).statusCode).toBe(400);
      const missing = await call('GET', `${suitesUrl}/${missingId}`);
      expect(missing.statusCode).toBe(404);
      expect(messageOf(missing)).toMatch(/not found/);
      expect(
        (await call('PUT', `${suitesUrl}/${missingId}`, { definition: ticketSuite('z'), baseVersion: 1 }))
          .statusCode,
      ).toBe(404);
      expect((await call('GET', `${suitesUrl}/${suite.id}/versions/0`)).statusCode).toBe(400);
      expect((await call('GET', `${suitesUrl}?limit=0`)).statusCode).toBe(400);
      expect((await call('POST', `${suitesUrl}/${suite.id}/runs`, { concurrency: 0 })).statusCode).toBe(400);
      expect((await call('POST', `${suitesUrl}/import`, { format: 'csv', text: 'a' })).statusCode).toBe(400);
      // The escape "\u0000" is plain text on the wire; parsed, it is a NUL neither database stores.
      const nul = await call('POST', `${suitesUrl}/import`, {
        format: 'json',
        text: JSON.stringify(ticketSuite('nul\u0000')),
      });
      expect(nul.statusCode).toBe(400);
      expect(messageOf(nul)).toContain('name: contains a NUL character');
    });
  });
}
