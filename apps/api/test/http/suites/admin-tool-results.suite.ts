import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import { createLocalUser, createSession, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type TestApi } from '../../support/test-api';

interface ToolResultPageBody {
  sessionId: string;
  toolCallId: string;
  offset: number;
  content: string;
  totalCharacters: number;
  nextOffset: number | null;
  createdAt: string;
}
interface ErrorBody {
  error: { code: string; message: string };
}

/** 250 numbered lines: long enough to need several pages, each line saying where it is. */
const fullOutput = Array.from({ length: 250 }, (_, index) => `line ${index + 1} of the report`).join('\n');

export function describeAdminToolResults(engine: Engine): void {
  describe(`GET /v1/admin/sessions/:id/tool-results/:toolCallId (${engine})`, () => {
    let test: TestApi;
    let alice: User;
    let session: Session;
    let otherSession: Session;
    let viewerKey: IssuedKey;
    let aliceKey: IssuedKey;

    const url = (sessionId: string, toolCallId: string, query = '') =>
      `/v1/admin/sessions/${sessionId}/tool-results/${encodeURIComponent(toolCallId)}${query}`;

    beforeAll(async () => {
      test = await startTestApi(engine);
      const { repositories } = test.api;
      alice = await createLocalUser(repositories, 'alice');
      aliceKey = await issueUserKey(repositories, alice);
      viewerKey = await issueUserKey(repositories, await createLocalUser(repositories, 'qa'), 'viewer');
      session = await createSession(repositories, alice, 'a huge report', 2);
      otherSession = await createSession(repositories, alice, 'another session', 0);
      await repositories.turnStore.keepToolResult(alice.id, {
        sessionId: session.id,
        toolCallId: 'call_report',
        content: fullOutput,
      });
      await repositories.turnStore.keepToolResult(alice.id, {
        sessionId: session.id,
        toolCallId: 'toolu_01:emoji',
        content: 'ab😀cd',
      });
    });
    afterAll(async () => {
      await test.close();
    });

    it('pages through the whole stored output by following nextOffset', async () => {
      const pages: ToolResultPageBody[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const response = await test.request({
          method: 'GET',
          url: url(session.id, 'call_report', `?offset=${offset}&limit=1000`),
          key: viewerKey.key,
        });
        expect(response.statusCode).toBe(200);
        const page: ToolResultPageBody = response.json<ToolResultPageBody>();
        expect(page).toMatchObject({
          sessionId: session.id,
          toolCallId: 'call_report',
          offset,
          totalCharacters: fullOutput.length,
        });
        pages.push(page);
        offset = page.nextOffset;
      }
      expect(pages.length).toBe(Math.ceil(fullOutput.length / 1000));
      expect(pages.map((page) => page.content).join('')).toBe(fullOutput);
    });

    it('serves the whole result in one page by default when it is small, and never splits a character', async () => {
      const whole = await test.request({
        method: 'GET',
        url: url(session.id, 'toolu_01:emoji'),
        key: viewerKey.key,
      });
      expect(whole.json<ToolResultPageBody>()).toMatchObject({ content: 'ab😀cd', nextOffset: null });
      const cut = await test.request({
        method: 'GET',
        url: url(session.id, 'toolu_01:emoji', '?limit=3'),
        key: viewerKey.key,
      });
      expect(cut.json<ToolResultPageBody>()).toMatchObject({ content: 'ab', nextOffset: 2 });
    });

    it('audits a read of another user’s result with its reason', async () => {
      const response = await test.request({
        method: 'GET',
        url: url(session.id, 'call_report', '?limit=10&reason=ticket%2042'),
        key: viewerKey.key,
      });
      expect(response.statusCode).toBe(200);
      const audit = await test.api.repositories.audit.list({ sessionId: session.id }, { limit: 1 });
      expect(audit.items[0]).toMatchObject({
        action: 'admin.session.tool-result.read',
        targetUserId: alice.id,
        sessionId: session.id,
        reason: 'ticket 42',
      });
    });

    it.each([
      ['a tool call of another session', () => url(otherSession.id, 'call_report')],
      ['an unknown tool call', () => url(session.id, 'call_unknown')],
      ['an unknown session', () => url('00000000-0000-7000-8000-000000000000', 'call_report')],
    ])('answers 404 for %s', async (_name, target) => {
      const response = await test.request({ method: 'GET', url: target(), key: viewerKey.key });
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().error.code).toBe('NOT_FOUND');
    });

    it.each([
      ['offset', '?offset=-1', /offset/],
      ['offset', '?offset=1.5', /offset/],
      ['offset', '?offset=abc', /offset/],
      [
        'offset',
        `?offset=${fullOutput.length + 1}`,
        new RegExp(`offset: must be at most ${fullOutput.length}`),
      ],
      ['limit', '?limit=0', /limit/],
      ['limit', '?limit=100001', /limit.*from 1 to 100000/],
      ['limit', '?limit=ten', /limit/],
      ['an unknown parameter', '?page=2', /page/],
      ['reason', '?reason=a%0Ab', /reason/],
    ])('refuses a bad %s (%s) with a 400 naming it', async (_field, query, message) => {
      const response = await test.request({
        method: 'GET',
        url: url(session.id, 'call_report', query),
        key: viewerKey.key,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json<ErrorBody>();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.message).toMatch(message);
    });

    it.each([
      ['a malformed session id', () => url('not-an-id', 'call_report'), /id/],
      ['a tool call id with a line break', () => url(session.id, 'call\nreport'), /toolCallId/],
      ['a too long tool call id', () => url(session.id, 'c'.repeat(101)), /param length|toolCallId/],
    ])('refuses %s with a 400 naming the path parameter', async (_name, target, message) => {
      const response = await test.request({ method: 'GET', url: target(), key: viewerKey.key });
      expect(response.statusCode).toBe(400);
      expect(response.json<ErrorBody>().error.message).toMatch(message);
    });

    it('refuses the session’s own user: the route is for admins and viewers', async () => {
      const response = await test.request({
        method: 'GET',
        url: url(session.id, 'call_report'),
        key: aliceKey.key,
      });
      expect(response.statusCode).toBe(403);
    });
  });
}
