import { describe, expect, it } from 'vitest';
import { newId } from '../ids';
import type { JsonObject } from '../json';
import type { NewSandboxBuild } from '../repositories/sandbox-builds-repository';
import { StorageErrorCode } from '../storage-error';
import { expectStorageError, missingId, useTestDatabase } from './suite-helpers';
import type { TestDatabaseFactory } from './test-database';

function newBuild(startedAt: number, overrides: Partial<NewSandboxBuild> = {}): NewSandboxBuild {
  return {
    id: newId(startedAt),
    tag: 'agentdesk-sandbox:latest',
    force: true,
    trigger: 'admin',
    actorPrincipalId: 'u-admin',
    actorApiKeyId: 'k-admin',
    startedAt: new Date(startedAt),
    ...overrides,
  };
}

/** Sandbox image builds: started as running, finished once with their log, listed newest first. */
export function describeSandboxBuildsContract(factory: TestDatabaseFactory): void {
  describe('sandbox builds', () => {
    const current = useTestDatabase(factory);

    it('starts a build as running and finishes it once, keeping the outcome and the log', async () => {
      const { repositories, clock } = current();
      const started = await repositories.sandboxBuilds.start(newBuild(clock.now()));
      expect(started).toMatchObject({ status: 'running', force: true, events: null, finishedAt: null });
      const events: JsonObject[] = [
        { type: 'build-start', at: 1, tag: 'agentdesk-sandbox:latest', reason: 'forced' },
        { type: 'line', at: 2, text: 'unicode ✓ “quotes”' },
      ];
      const finished = await repositories.sandboxBuilds.finish(started.id, {
        status: 'built',
        imageIdBefore: 'sha256:old',
        imageIdAfter: 'sha256:new',
        error: null,
        events,
        finishedAt: new Date(clock.now() + 1500),
      });
      expect(finished).toMatchObject({
        status: 'built',
        imageIdBefore: 'sha256:old',
        imageIdAfter: 'sha256:new',
        events,
        actorPrincipalId: 'u-admin',
      });
      expect(finished.finishedAt!.getTime() - finished.startedAt.getTime()).toBe(1500);
      expect(await repositories.sandboxBuilds.get(started.id)).toEqual(finished);
      await expectStorageError(
        repositories.sandboxBuilds.finish(started.id, { ...finishedOutcome(), status: 'failed' }),
        StorageErrorCode.NotFound,
        'sandbox-build',
      );
    });

    it('answers NotFound for an unknown id', async () => {
      const { repositories } = current();
      await expectStorageError(
        repositories.sandboxBuilds.get(missingId),
        StorageErrorCode.NotFound,
        'sandbox-build',
      );
    });

    it('lists newest first with a cursor, start-up ensures included', async () => {
      const { repositories, clock } = current();
      const first = await repositories.sandboxBuilds.start(
        newBuild(clock.now(), {
          trigger: 'start-up',
          actorPrincipalId: null,
          actorApiKeyId: null,
          force: false,
        }),
      );
      const second = await repositories.sandboxBuilds.start(newBuild(clock.now() + 10));
      const page = await repositories.sandboxBuilds.list({ limit: 1 });
      expect(page.items.map((build) => build.id)).toEqual([second.id]);
      const next = await repositories.sandboxBuilds.list({ limit: 1, cursor: page.nextCursor });
      expect(next.items).toEqual([first]);
      expect(next.items[0]).toMatchObject({ trigger: 'start-up', actorPrincipalId: null, force: false });
    });

    it('keeps the session and its owner of a build started on a session’s path, and null for the others', async () => {
      const { repositories, clock } = current();
      const sessionBuild = await repositories.sandboxBuilds.start(
        newBuild(clock.now(), {
          trigger: 'session',
          actorPrincipalId: null,
          actorApiKeyId: null,
          force: false,
          sessionId: 's-needs-image',
          sessionOwnerUserId: 'u-alice',
        }),
      );
      expect(await repositories.sandboxBuilds.get(sessionBuild.id)).toMatchObject({
        trigger: 'session',
        sessionId: 's-needs-image',
        sessionOwnerUserId: 'u-alice',
        actorPrincipalId: null,
      });
      const finished = await repositories.sandboxBuilds.finish(sessionBuild.id, finishedOutcome());
      expect(finished).toMatchObject({ sessionId: 's-needs-image', sessionOwnerUserId: 'u-alice' });
      const adminBuild = await repositories.sandboxBuilds.start(newBuild(clock.now() + 10));
      expect(adminBuild).toMatchObject({ trigger: 'admin', sessionId: null, sessionOwnerUserId: null });
      expect((await repositories.sandboxBuilds.list()).items.map((build) => build.trigger)).toEqual([
        'admin',
        'session',
      ]);
    });

    it('marks builds left running by a stopped process as interrupted, newer ones untouched', async () => {
      const { repositories, clock } = current();
      const old = await repositories.sandboxBuilds.start(newBuild(clock.now() - 60_000));
      const fresh = await repositories.sandboxBuilds.start(newBuild(clock.now()));
      expect(await repositories.sandboxBuilds.markInterrupted(new Date(clock.now() - 1000))).toBe(1);
      expect(await repositories.sandboxBuilds.get(old.id)).toMatchObject({
        status: 'interrupted',
        error: expect.stringContaining('stopped'),
      });
      expect((await repositories.sandboxBuilds.get(fresh.id)).status).toBe('running');
    });
  });
}

function finishedOutcome() {
  return {
    status: 'built' as const,
    imageIdBefore: null,
    imageIdAfter: 'sha256:x',
    error: null,
    events: [],
    finishedAt: new Date(),
  };
}
