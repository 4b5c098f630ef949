import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type AuditEntry, type User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, issueStaffKeys, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';
import { waitFor } from '../../support/wait-for';

/** Parses RFC 4180 text (quoted fields, doubled quotes, CRLF records) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(cell);
      cell = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += character;
  }
  expect(cell).toBe('');
  return rows;
}

export function describeExports(engine: Engine): void {
  describe(`exports and sorted lists (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let bob: User;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;
    let userKey: IssuedKey;

    beforeEach(async () => {
      test = await startTestApi(engine);
      alice = await createLocalUser(test.api.repositories, 'alice');
      bob = await createLocalUser(test.api.repositories, 'bob');
      ({ adminKey, viewerKey } = await issueStaffKeys(test.api.repositories));
      userKey = await issueUserKey(test.api.repositories, alice);
    });
    afterEach(async () => {
      await test.close();
    });

    async function exportRecords(): Promise<AuditEntry[]> {
      const page = await test.api.repositories.audit.list({ action: 'admin.export' }, { limit: 100 });
      return page.items;
    }

    async function seedUsage(count: number, at: number, model: string, endUser: User): Promise<void> {
      for (let start = 0; start < count; start += 1000) {
        const size = Math.min(1000, count - start);
        await test.api.repositories.usage.recordBatch(
          Array.from({ length: size }, (_, index) => ({
            id: newId(at + start + index),
            occurredAt: at + start + index,
            source: 'chat-completion' as const,
            model,
            provider: 'openai',
            apiKeyId: null,
            portalId: null,
            endUserId: endUser.id,
            inputTokens: start + index,
            outputTokens: 1,
            thinkingTokens: 0,
            cachedTokens: 0,
            latencyMs: 3,
            status: 'ok' as const,
            costMicros: null,
            priceId: null,
          })),
        );
      }
    }

    it('a person whose calls had no price has an unknown cost — not $0 — in the directory, their page and the export', async () => {
      await seedUsage(2, Date.now(), 'a-model-without-a-price', alice);
      const expected = { modelCalls: 2, costMicros: null, pricedCostMicros: 0, unpricedCalls: 2 };
      const listed = await test.request({ method: 'GET', url: '/v1/admin/users?q=alice', key: adminKey.key });
      expect(listed.statusCode, listed.body).toBe(200);
      const [row] = listed.json<{ items: { id: string; usage: Record<string, unknown> }[] }>().items;
      expect(row?.id).toBe(alice.id);
      expect(row?.usage).toMatchObject(expected);
      const read = await test.request({
        method: 'GET',
        url: `/v1/admin/users/${alice.id}`,
        key: adminKey.key,
      });
      expect(read.json<{ usage: Record<string, unknown> }>().usage).toMatchObject(expected);
      const exported = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/users?format=csv&q=alice',
        key: adminKey.key,
      });
      expect(exported.statusCode, exported.body).toBe(200);
      const [header, person] = parseCsv(exported.body);
      const cell = (column: string) => person![header!.indexOf(column)];
      expect(cell('id')).toBe(alice.id);
      expect([cell('costMicros'), cell('pricedCostMicros'), cell('unpricedCalls')]).toEqual(['', '0', '2']);
    });

    it('exports the sessions the list shows with its filter and sort as CSV, formula-safe, and audits it', async () => {
      const labels = ['report b', '=cmd("x")', 'report a, with "quotes"', 'other'];
      for (const label of labels) {
        await test.api.repositories.sessions.create({
          ownerUserId: label === 'other' ? bob.id : alice.id,
          label,
        });
      }
      const response = await test.request({
        method: 'GET',
        url: `/v1/admin/exports/sessions?format=csv&userId=${alice.id}&sort=label&dir=asc&reason=ticket%209`,
        key: adminKey.key,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="sessions-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const rows = parseCsv(response.body);
      const header = rows[0]!;
      expect(header.slice(0, 3)).toEqual(['id', 'label', 'ownerUserId']);
      const labelColumn = header.indexOf('label');
      // Alice's three, by label in code point order; the formula-like label neutralised with a quote mark.
      expect(rows.slice(1).map((row) => row[labelColumn])).toEqual([
        '\'=cmd("x")',
        'report a, with "quotes"',
        'report b',
      ]);
      const [record] = await exportRecords();
      expect(record).toMatchObject({
        actorPrincipalId: adminKey.stored.ownerUserId,
        outcome: 'succeeded',
        targetUserId: alice.id,
        reason: 'ticket 9',
        details: {
          list: 'sessions',
          format: 'csv',
          count: 3,
          end: 'complete',
          filter: { userId: alice.id, sort: 'label', dir: 'asc' },
        },
      });
    });

    it('exports usage events of a range and model as JSON Lines, one object per line, and audits the count', async () => {
      const day = Date.UTC(2026, 2, 1, 12);
      await seedUsage(7, day, 'gpt-4o', alice);
      await seedUsage(3, day + 100, 'claude-sonnet-4', bob);
      await seedUsage(2, Date.UTC(2026, 2, 5), 'gpt-4o', alice);
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/usage?format=jsonl&from=2026-03-01&to=2026-03-02&model=gpt-4o',
        key: viewerKey.key,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toContain('application/jsonl');
      const lines = response.body.split('\n');
      expect(lines.at(-1)).toBe('');
      const events = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(events).toHaveLength(7);
      expect(new Set(events.map((event) => event['model']))).toEqual(new Set(['gpt-4o']));
      expect(events.map((event) => event['inputTokens'])).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(events[0]).toMatchObject({ endUserId: alice.id, occurredAt: new Date(day).toISOString() });
      const [record] = await exportRecords();
      expect(record?.details).toMatchObject({ list: 'usage', format: 'jsonl', count: 7, end: 'complete' });
    });

    it('exports every user the directory filters match, by id across chunks, with their usage range, audited', async () => {
      // More people of one portal than one export chunk (1,000), and a few others the filter leaves out.
      const portalPeople = Array.from({ length: 1003 }, (_, index) => ({
        id: newId(Date.UTC(2026, 0, 1) + index),
        portal_id: 'acme',
        external_id: `customer-${String(index).padStart(4, '0')}`,
        display_name: index % 2 === 0 ? `Carol ${index}` : `Dave ${index}`,
        created_at: Date.UTC(2026, 0, 1) + index,
      }));
      await test.database.database.db.insertInto('users').values(portalPeople).execute();
      await test.api.repositories.users.ensurePortalUser(
        'other-portal',
        'carol-elsewhere',
        'Carol Elsewhere',
      );
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/users?portalId=acme&from=2026-03-01&to=2026-03-10',
        key: viewerKey.key,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/filename="users-\d{4}-\d{2}-\d{2}\.csv"/);
      const rows = parseCsv(response.body);
      const header = rows[0]!;
      const column = (name: string) => header.indexOf(name);
      const ids = rows.slice(1).map((row) => row[column('id')]);
      expect(ids).toEqual(portalPeople.map((person) => person.id).sort());
      expect(new Set(rows.slice(1).map((row) => row[column('portalId')]))).toEqual(new Set(['acme']));
      expect(rows[1]![column('usageFrom')]).toBe('2026-03-01');
      expect(rows[1]![column('sessionCount')]).toBe('0');

      // The search prefix and the role filter are the directory's own.
      const carols = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/users?format=jsonl&q=carol%2099',
        key: adminKey.key,
      });
      expect(carols.statusCode, carols.body).toBe(200);
      const names = carols.body
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { displayName: string }).displayName);
      expect(names).toEqual(['Carol 990', 'Carol 992', 'Carol 994', 'Carol 996', 'Carol 998']);
      const admins = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/users?format=jsonl&role=admin',
        key: adminKey.key,
      });
      const adminRows = admins.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; role: string });
      expect(adminRows).toEqual([
        expect.objectContaining({ id: adminKey.stored.ownerUserId, role: 'admin' }),
      ]);

      const records = await exportRecords();
      expect(records.map((record) => record.details)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            list: 'users',
            count: 1003,
            end: 'complete',
            filter: { portalId: 'acme', from: '2026-03-01', to: '2026-03-10' },
          }),
        ]),
      );
      const refused = await test.request({ method: 'GET', url: '/v1/admin/exports/users', key: userKey.key });
      expect(refused.statusCode).toBe(403);
      const badRole = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/users?role=owner',
        key: adminKey.key,
      });
      expect(badRole.statusCode).toBe(400);
      expect(badRole.body).toContain('role');
    });

    it('exports the audit log (admin only) and fails closed for callers without the list’s scope', async () => {
      await test.api.repositories.audit.append({
        actorPrincipalId: 'someone',
        action: 'admin.sessions.list',
      });
      const response = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/audit?action=admin.sessions.list',
        key: adminKey.key,
      });
      expect(response.statusCode, response.body).toBe(200);
      const rows = parseCsv(response.body);
      expect(rows).toHaveLength(2);
      expect(rows[1]![rows[0]!.indexOf('actorPrincipalId')]).toBe('someone');
      for (const [list, key, status] of [
        ['audit', viewerKey.key, 403],
        ['sessions', userKey.key, 403],
        ['usage', userKey.key, 403],
        ['audit', undefined, 401],
      ] as const) {
        const refused = await test.request({
          method: 'GET',
          url: `/v1/admin/exports/${list}`,
          ...(key === undefined ? {} : { key }),
        });
        expect(refused.statusCode, `${list}: ${refused.body}`).toBe(status);
      }
    });

    it('refuses bad filters, formats and sorts with 400 naming what to fix', async () => {
      const cases: Array<[string, string]> = [
        ['/v1/admin/exports/sessions?createdFrom=yesterday', 'createdFrom'],
        ['/v1/admin/exports/sessions?format=xlsx', 'csv, jsonl'],
        ['/v1/admin/exports/usage?from=2026-03-05&to=2026-03-01', 'must not be before from'],
        ['/v1/admin/exports/sessions?limit=5', 'limit'],
        ['/v1/admin/sessions?sort=owner', 'created, updated, messages, tokens, label'],
        ['/v1/admin/audit?sort=at&dir=up', 'asc or desc'],
        ['/v1/admin/api-keys?sort=prefix', 'created, lastUsed, label'],
      ];
      for (const [url, expected] of cases) {
        const response = await test.request({ method: 'GET', url, key: adminKey.key });
        expect(response.statusCode, url).toBe(400);
        expect(response.body, url).toContain(expected);
      }
      expect(await exportRecords()).toEqual([]);
    });

    it('sorts the sessions list server side, stable with paging, and refuses a cursor of another sort', async () => {
      for (const label of ['c', 'a', 'b', 'a'])
        await test.api.repositories.sessions.create({ ownerUserId: alice.id, label });
      const first = await test.request({
        method: 'GET',
        url: '/v1/admin/sessions?sort=label&dir=asc&limit=3',
        key: adminKey.key,
      });
      expect(first.statusCode, first.body).toBe(200);
      const firstPage = first.json<{ items: Array<{ label: string }>; nextCursor: string }>();
      expect(firstPage.items.map((item) => item.label)).toEqual(['a', 'a', 'b']);
      const second = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions?sort=label&dir=asc&limit=3&cursor=${firstPage.nextCursor}`,
        key: adminKey.key,
      });
      expect(second.json<{ items: Array<{ label: string }> }>().items.map((item) => item.label)).toEqual([
        'c',
      ]);
      const otherSort = await test.request({
        method: 'GET',
        url: `/v1/admin/sessions?sort=created&limit=3&cursor=${firstPage.nextCursor}`,
        key: adminKey.key,
      });
      expect(otherSort.statusCode).toBe(400);
      expect(otherSort.body).toContain('another sort order');
    });

    it('survives a client that leaves mid-stream and records the cut export with the rows sent', async () => {
      await seedUsage(30_000, Date.UTC(2026, 2, 1), 'gpt-4o', alice);
      const baseUrl = await test.api.listen();
      const url = new URL('/v1/admin/exports/usage?from=2026-03-01&to=2026-03-01', baseUrl);
      await new Promise<void>((resolve, reject) => {
        const request = http.get(
          url,
          { headers: { authorization: `Bearer ${adminKey.key}` } },
          (response) => {
            expect(response.statusCode).toBe(200);
            // Read one chunk, then stop reading and hang up while the server still has rows to send.
            response.once('data', () => {
              response.pause();
              request.destroy();
              resolve();
            });
          },
        );
        request.on('error', (error) => {
          if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
        });
      });
      const records = await waitFor(
        async () => {
          const found = await exportRecords();
          return found.length > 0 ? found : undefined;
        },
        'the cut export to be recorded in the audit trail',
        {
          state: async () => ({
            latestAuditActions: (await test.api.repositories.audit.list({}, { limit: 10 })).items.map(
              (entry) => [entry.action, entry.outcome],
            ),
          }),
        },
      );
      expect(records).toHaveLength(1);
      const details = records[0]!.details as { end: string; count: number };
      expect(records[0]!.outcome).toBe('failed');
      expect(details.end).toBe('client-gone');
      expect(details.count).toBeLessThan(30_000);
      // The API is still well.
      const after = await test.request({
        method: 'GET',
        url: '/v1/admin/exports/usage?from=2026-03-02&to=2026-03-02',
        key: adminKey.key,
      });
      expect(after.statusCode).toBe(200);
    });
  });
}
