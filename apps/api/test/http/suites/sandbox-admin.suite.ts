import type { Session, User } from '@agentdesk/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxRuntime } from '../../../src/shared/sandbox-runtime/sandbox-runtime';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issueUserKey,
  missingId,
  type IssuedKey,
} from '../../support/fixtures';
import { sandboxTestEnvironment } from '../../support/sandbox-environment';
import { startTestApi, type TestApi } from '../../support/test-api';
import { waitFor } from '../../support/wait-for';

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => ({
      event: /^event: (.*)$/m.exec(frame)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}') as Record<string, unknown>,
    }));
}

/** `/v1/admin/sandbox`: admins mutate (audited), viewers read, everyone else is refused. */
export function describeSandboxAdmin(engine: Engine): void {
  describe(`sandbox admin routes (${engine})`, () => {
    let test: TestApi;
    let admin: User;
    let adminKey: IssuedKey;
    let viewerKey: IssuedKey;
    let userKey: IssuedKey;
    let session: Session;
    let alice: User;

    beforeAll(async () => {
      test = await startTestApi(engine, sandboxTestEnvironment('admin', engine));
      await test.api.app.get(SandboxRuntime).whenStarted();
      const repositories = test.api.repositories;
      admin = await createLocalUser(repositories, 'sandbox-admin');
      adminKey = await issueUserKey(repositories, admin, 'admin');
      viewerKey = await issueUserKey(
        repositories,
        await createLocalUser(repositories, 'sandbox-viewer'),
        'viewer',
      );
      alice = await createLocalUser(repositories, 'alice');
      userKey = await issueUserKey(repositories, alice);
      session = await createSession(repositories, alice, 'with a sandbox');
      await test.api.app.get(SandboxRuntime).service!.acquireContainer(session.id);
    });
    afterAll(async () => {
      const service = test?.api.app.get(SandboxRuntime).service;
      await service?.close({ removePool: true });
      for (const container of (await service?.listContainers()) ?? [])
        await service?.engine.removeContainer(container.id);
      for (const pin of service ? [service.config.pinName, service.config.basePinName] : [])
        await service?.engine.removeContainer(pin);
      await test?.close();
    });

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, key: IssuedKey, body?: unknown) =>
      test.request({
        method,
        url,
        key: key.key,
        headers: { 'x-audit-reason': 'sandbox check' },
        ...(body === undefined ? {} : { body }),
      });

    it('says the sandbox is ready once started, on /readyz and on its own readiness route', async () => {
      expect((await test.request({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
        sandbox: { status: 'ready' },
      });
      const sandboxReady = await test.request({ method: 'GET', url: '/readyz/sandbox' });
      expect(sandboxReady.statusCode).toBe(200);
      expect(sandboxReady.json()).toMatchObject({ status: 'ready', engine: expect.any(String) });
    });

    it('shows the image: current, labelled with this version, pinned', async () => {
      const response = await call('GET', '/v1/admin/sandbox/image', viewerKey);
      expect(response.statusCode).toBe(200);
      const image = response.json<Record<string, unknown>>();
      expect(image).toMatchObject({
        tag: `agentdesk-api-admin-${engine}:latest`,
        present: true,
        current: true,
        versionLabel: image['runningVersion'],
        pin: { pinned: true, state: 'running', imageId: image['imageId'] },
        baseImage: { present: true, pin: { pinned: true } },
      });
    });

    it('rebuilds: 202 with a build id at once, the log replays from the start to a late viewer, the history keeps who and what', async () => {
      const before = (await call('GET', '/v1/admin/sandbox/image', adminKey)).json<{ imageId: string }>()
        .imageId;
      const started = await call('POST', '/v1/admin/sandbox/image/rebuild', adminKey, { force: true });
      expect(started.statusCode).toBe(202);
      const { buildId, events } = started.json<{ buildId: string; events: string }>();
      expect(events).toBe(`/v1/admin/sandbox/builds/${buildId}/events`);

      // A viewer following the live build, and one arriving after it ended, see the same log.
      const live = await call('GET', events, viewerKey);
      expect(live.statusCode).toBe(200);
      expect(live.headers['content-type']).toContain('text/event-stream');
      const liveEvents = parseSse(live.body);
      expect(liveEvents[0]?.event).toBe('build-start');
      expect(liveEvents.some((event) => event.event === 'step')).toBe(true);
      expect(liveEvents.at(-1)).toMatchObject({ event: 'build-end', data: { status: 'built' } });
      const late = await call('GET', events, viewerKey);
      expect(parseSse(late.body)).toEqual(liveEvents);

      const after = (await call('GET', '/v1/admin/sandbox/image', adminKey)).json<{
        imageId: string;
        pin: { pinned: boolean; imageId: string };
      }>();
      expect(after.imageId).not.toBe(before);
      expect(after.pin).toMatchObject({ pinned: true, imageId: after.imageId });

      const build = (await call('GET', `/v1/admin/sandbox/builds/${buildId}`, viewerKey)).json<
        Record<string, unknown>
      >();
      expect(build).toMatchObject({
        id: buildId,
        trigger: 'admin',
        force: true,
        status: 'built',
        actor: { principalId: admin.id, apiKeyId: adminKey.stored.id },
        imageIdBefore: before,
        imageIdAfter: after.imageId,
        error: null,
      });
      expect(build['durationMs']).toBeGreaterThan(0);
      expect((build['events'] as unknown[]).length).toBe(liveEvents.length);

      const history = (await call('GET', '/v1/admin/sandbox/builds', viewerKey)).json<{
        items: Array<{ id: string; trigger: string }>;
      }>();
      expect(history.items[0]?.id).toBe(buildId);
      // The ensure the API ran at start is in the history too, with no actor.
      expect(history.items.some((item) => item.trigger === 'start-up')).toBe(true);

      const audit = await test.api.repositories.audit.list({ action: 'admin.sandbox.image.rebuild' });
      expect(audit.items).toMatchObject([
        {
          actorPrincipalId: admin.id,
          actorApiKeyId: adminKey.stored.id,
          reason: 'sandbox check',
          requestId: started.headers['x-request-id'],
        },
      ]);
    });

    it('re-pins after the pin container was removed by hand', async () => {
      const runtime = test.api.app.get(SandboxRuntime);
      const service = runtime.service!;
      await service.engine.removeContainer(service.config.pinName);
      expect((await call('GET', '/v1/admin/sandbox/image', viewerKey)).json()).toMatchObject({
        pin: { state: 'missing', pinned: false },
      });
      const response = await call('POST', '/v1/admin/sandbox/image/repin', adminKey);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ outcome: 'pinned', pinName: service.config.pinName });
      expect((await call('POST', '/v1/admin/sandbox/image/repin', adminKey)).json()).toMatchObject({
        outcome: 'already-pinned',
      });
      const audit = await test.api.repositories.audit.list({ action: 'admin.sandbox.image.repin' });
      expect(audit.items).toHaveLength(2);
    });

    it('lists containers with their session, owner and last use, and removes one (audited with its session)', async () => {
      const usedAt = Date.now();
      await test.api.app.get(SandboxRuntime).service!.forSession(session.id).exec({ command: 'true' });
      const listed = await call('GET', '/v1/admin/sandbox/containers', viewerKey);
      expect(listed.statusCode).toBe(200);
      const items = listed.json<{ items: Array<Record<string, unknown>> }>().items;
      const sandbox = items.find((item) => item['sessionId'] === session.id);
      expect(sandbox).toMatchObject({
        role: 'session',
        ownerUserId: session.ownerUserId,
        state: 'running',
        imageId: expect.stringMatching(/^sha256:/),
      });
      expect(sandbox?.['ageSeconds']).toBeGreaterThanOrEqual(0);
      expect(Date.parse(String(sandbox?.['lastUsedAt']))).toBeGreaterThanOrEqual(usedAt);
      // Sessions and the warm pool only: the pins are on the image route.
      expect(items.map((item) => item['role'])).toContain('session');
      expect(items.filter((item) => item['role'] === 'pin')).toEqual([]);
      // The list names other users' sessions: the viewer's listing is audited once, with its count.
      expect(
        (await test.api.repositories.audit.list({ action: 'admin.sandbox.containers.list' })).items,
      ).toMatchObject([
        {
          actorApiKeyId: viewerKey.stored.id,
          targetUserId: null,
          sessionId: null,
          reason: 'sandbox check',
          requestId: listed.headers['x-request-id'],
          details: { filter: {}, count: items.length },
        },
      ]);

      const removed = await call(
        'DELETE',
        `/v1/admin/sandbox/containers/${String(sandbox?.['id'])}`,
        adminKey,
      );
      expect(removed.statusCode).toBe(204);
      const again = (await call('GET', '/v1/admin/sandbox/containers', viewerKey)).json<{
        items: Array<{ sessionId: string | null }>;
      }>();
      expect(again.items.map((item) => item.sessionId)).not.toContain(session.id);
      const audit = await test.api.repositories.audit.list({ action: 'admin.sandbox.container.remove' });
      expect(audit.items).toMatchObject([
        {
          actorPrincipalId: admin.id,
          outcome: 'succeeded',
          target: { kind: 'sandbox-container', id: sandbox?.['id'] },
          sessionId: session.id,
          targetUserId: session.ownerUserId,
        },
      ]);
      // Not one of ours (or gone): 404, recorded as a refused attempt, not as a removal.
      const gone = await call('DELETE', `/v1/admin/sandbox/containers/${String(sandbox?.['id'])}`, adminKey);
      expect(gone.statusCode).toBe(404);
      expect(
        (await test.api.repositories.audit.list({ action: 'admin.sandbox.container.remove' })).items,
      ).toMatchObject([
        { outcome: 'refused', requestId: gone.headers['x-request-id'] },
        { outcome: 'succeeded' },
      ]);
    });

    it('refuses to remove a pin through the containers route, by name or by id (409 naming the image route)', async () => {
      const service = test.api.app.get(SandboxRuntime).service!;
      const pinId = (await service.engine.inspectContainer(service.config.pinName))!.Id;
      for (const target of [service.config.pinName, pinId, service.config.basePinName]) {
        const response = await call('DELETE', `/v1/admin/sandbox/containers/${target}`, adminKey);
        expect(response.statusCode, target).toBe(409);
        expect(response.json<{ error: { code: string; message: string } }>().error).toMatchObject({
          code: 'CONFLICT',
          message: expect.stringContaining('/v1/admin/sandbox/image/repin'),
        });
      }
      expect((await service.engine.inspectContainer(service.config.pinName))?.State.Running).toBe(true);
      expect((await service.engine.inspectContainer(service.config.basePinName))?.State.Running).toBe(true);
      expect(
        (
          await test.api.repositories.audit.list({
            action: 'admin.sandbox.container.remove',
            outcome: 'succeeded',
          })
        ).items,
      ).toHaveLength(1); // the session container's removal above; the refusals are recorded as refused
    });

    it('records a build started on a session’s path (image missing) with trigger session, the session and its owner', async () => {
      const service = test.api.app.get(SandboxRuntime).service!;
      const needsImage = await createSession(test.api.repositories, alice, 'needs the image');
      await service.engine.removeImage(service.config.tag, true); // untagged behind the API's back
      const result = await service.forSession(needsImage.id).exec({ command: 'echo built for me' });
      expect(result.stdout.text).toBe('built for me\n');

      const builds = async () =>
        (await call('GET', '/v1/admin/sandbox/builds', viewerKey)).json<{
          items: Array<Record<string, unknown>>;
        }>().items;
      const sessionBuild = async () => (await builds()).find((item) => item['trigger'] === 'session');
      const build = await waitFor(
        async () => {
          const found = await sessionBuild();
          return found?.['status'] === 'built' ? found : undefined;
        },
        'the session-triggered build to be recorded as built',
        { state: async () => ({ builds: await builds() }) },
      );
      expect(build).toMatchObject({
        trigger: 'session',
        status: 'built',
        force: false,
        actor: null,
        session: { id: needsImage.id, ownerUserId: alice.id },
        imageIdAfter: (await service.engine.inspectImage(service.config.tag))?.Id,
        error: null,
      });
    });

    it('lets a viewer read but never mutate, and refuses users', async () => {
      for (const [method, url] of [
        ['POST', '/v1/admin/sandbox/image/rebuild'],
        ['POST', '/v1/admin/sandbox/image/repin'],
        ['DELETE', '/v1/admin/sandbox/containers/anything'],
      ] as const) {
        expect((await call(method, url, viewerKey)).statusCode, `${method} ${url}`).toBe(403);
      }
      for (const url of [
        '/v1/admin/sandbox/image',
        '/v1/admin/sandbox/builds',
        '/v1/admin/sandbox/containers',
      ]) {
        expect((await call('GET', url, userKey)).statusCode, url).toBe(403);
      }
    });

    it.each([
      ['a force that is not a boolean', { force: 'yes' }, 'force'],
      ['an unknown field', { force: true, tag: 'evil:latest' }, 'tag'],
    ])('refuses a rebuild body with %s (400 naming the field)', async (_case, body, field) => {
      const response = await call('POST', '/v1/admin/sandbox/image/rebuild', adminKey, body);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toContain(field);
    });

    it.each([
      ['/v1/admin/sandbox/builds/not-a-uuid', 400],
      [`/v1/admin/sandbox/builds/${missingId}`, 404],
      [`/v1/admin/sandbox/builds/${missingId}/events`, 404],
      ['/v1/admin/sandbox/builds?limit=0', 400],
      ['/v1/admin/sandbox/builds?cursor=%00', 400],
    ])('GET %s answers %i', async (url, status) => {
      expect((await call('GET', url, viewerKey)).statusCode).toBe(status);
    });

    it('refuses container ids that are not container names (400)', async () => {
      const response = await call('DELETE', '/v1/admin/sandbox/containers/..%2Fetc', adminKey);
      expect(response.statusCode).toBe(400);
    });
  });
}
