import { Controller, Delete, Get, Module, Patch, Post, Put } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActions } from '../../src/shared/audit/audit-actions';
import { Audited, auditTargetKinds, NotAudited } from '../../src/shared/audit/audited';
import { mutatingMethods, routesMissingAuditDecision } from '../../src/routes/audit-policy';
import { RouteInventory, type RouteEntry } from '../../src/routes/route-inventory';
import { RequireScope } from '../../src/routes/route-policy';
import { createLocalUser, issueUserKey } from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/test-api';

/*
 * Every change is audited, as data: each route of the running app's route table that changes
 * something (POST, PUT, PATCH, DELETE) says `@Audited(action)` — one record per call, refused
 * attempts included, written by the audit trail — or `@NotAudited(reason)`. A new such route fails
 * here until it decides; the table below is the decision per route, written apart from the code,
 * so a reviewer sees each change of it. The probe at the end proves the check bites.
 */

const notAudited = 'not audited';

/** Each route that changes something (or says it is audited): the action its record names, or `not audited`. */
const decisions: Readonly<Record<string, string>> = {
  'POST /v1/sessions': notAudited,
  'PATCH /v1/sessions/:id': notAudited,
  'POST /v1/sessions/:id/close': notAudited,
  'DELETE /v1/sessions/:id': auditActions.sessionDelete,
  'POST /v1/sessions/:id/messages': notAudited,
  'POST /v1/chat/completions': notAudited,
  'POST /v1/admin/structured-output/runs': auditActions.labRunCreate,
  'POST /v1/admin/api-keys': auditActions.apiKeyCreate,
  'POST /v1/admin/model-prices': auditActions.modelPriceAdd,
  'DELETE /v1/admin/api-keys/:id': auditActions.apiKeyRevoke,
  'POST /v1/admin/sandbox/image/rebuild': auditActions.sandboxImageRebuild,
  'POST /v1/admin/sandbox/image/repin': auditActions.sandboxImageRepin,
  'DELETE /v1/admin/sandbox/containers/:id': auditActions.sandboxContainerRemove,
  'POST /v1/console-sessions': auditActions.consoleSignIn,
  'DELETE /v1/console-sessions/current': auditActions.consoleSignOut,
  'DELETE /v1/admin/console-sessions/:id': auditActions.consoleSessionEnd,
  'DELETE /v1/admin/users/:id/console-sessions': auditActions.consoleSessionsEndAll,
  'POST /v1/sso/exchange': auditActions.consoleSignIn,
  'POST /v1/qa/suites': auditActions.qaSuiteCreate,
  'POST /v1/qa/suites/import': auditActions.qaSuiteImport,
  'PUT /v1/qa/suites/:id': auditActions.qaSuiteSave,
  'POST /v1/qa/suites/:id/import': auditActions.qaSuiteSave,
  'POST /v1/qa/suites/:id/cases-from-lab': auditActions.qaSuiteSave,
  'POST /v1/qa/suites/:id/runs': auditActions.qaRunStart,
  'POST /v1/qa/runs/:id/cancel': auditActions.qaRunCancel,
};

const nameOf = (route: RouteEntry): string => `${route.method} ${route.path}`;

describe('every change audited: the route table', () => {
  let test: TestApi;
  let routes: RouteEntry[];

  beforeAll(async () => {
    test = await startTestApi('sqlite');
    routes = test.api.app.get(RouteInventory).routes();
  });
  afterAll(async () => {
    await test?.close();
  });

  it('gives every route that changes something an audit decision', () => {
    expect(routes.filter((route) => mutatingMethods.has(route.method)).length).toBeGreaterThan(10);
    expect(routesMissingAuditDecision(routes).map(nameOf)).toEqual([]);
    expect(test.logs.text()).not.toContain('without an audit decision');
  });

  it('matches the reviewed decision of each route', () => {
    const actual = Object.fromEntries(
      routes
        // A read that changes something (a sign-on callback) carries a decision: it is listed too.
        .filter((route) => mutatingMethods.has(route.method) || route.audit !== undefined)
        .map((route) => [
          nameOf(route),
          route.audit?.kind === 'audited' ? route.audit.action : (route.audit?.kind ?? 'undecided'),
        ])
        .map(([name, decision]) => [name, decision === 'not-audited' ? notAudited : decision]),
    );
    expect(actual).toEqual(decisions);
  });

  it('names only known actions and target kinds, and says why a route is not audited', () => {
    const known = new Set<string>(Object.values(auditActions));
    for (const route of routes) {
      const audit = route.audit;
      if (audit?.kind === 'audited') {
        expect(known.has(audit.action), nameOf(route)).toBe(true);
        if (audit.target !== undefined)
          expect(auditTargetKinds as readonly string[], nameOf(route)).toContain(audit.target.kind);
        // A path parameter named as the target's id must exist in the path.
        if (audit.target?.idParam !== undefined)
          expect(route.path, nameOf(route)).toContain(`:${audit.target.idParam}`);
      }
      if (audit?.kind === 'not-audited') expect(audit.reason.length, nameOf(route)).toBeGreaterThan(20);
    }
    // Only the sign-in records refused credentials (failed sign-ins).
    expect(
      routes.filter((route) => route.audit?.kind === 'audited' && route.audit.failedCredentials).map(nameOf),
    ).toEqual(['POST /v1/console-sessions']);
  });

  it('refuses a @NotAudited without a reason where it is written', () => {
    expect(() => NotAudited('')).toThrow(/needs a reason/);
    expect(() => NotAudited('mine')).toThrow(/needs a reason/);
  });
});

// A feature someone forgot to decide about, on every method that changes something, and one that decided.
@Controller('v1/probe')
class AuditProbeController {
  @Post('forgotten')
  @RequireScope('api-keys:write')
  forgotten(): { ok: true } {
    return { ok: true };
  }

  @Put('forgotten')
  @RequireScope('api-keys:write')
  forgottenPut(): { ok: true } {
    return { ok: true };
  }

  @Patch('forgotten')
  @RequireScope('api-keys:write')
  forgottenPatch(): { ok: true } {
    return { ok: true };
  }

  @Delete('forgotten')
  @RequireScope('api-keys:write')
  forgottenDelete(): { ok: true } {
    return { ok: true };
  }

  @Get('read')
  @RequireScope('api-keys:read')
  read(): { ok: true } {
    return { ok: true };
  }

  @Delete('decided/:id')
  @RequireScope('api-keys:write')
  @Audited(auditActions.apiKeyRevoke, { target: { kind: 'api-key', idParam: 'id' } })
  decided(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [AuditProbeController] })
class AuditProbeModule {}

describe('every change audited: the check bites', () => {
  it('reports each route that changes something without a decision, and no read', async () => {
    const test = await startTestApi('sqlite', {}, { extraModules: [AuditProbeModule] });
    try {
      const routes = test.api.app.get(RouteInventory).routes();
      expect(routesMissingAuditDecision(routes).map(nameOf)).toEqual([
        'DELETE /v1/probe/forgotten',
        'PATCH /v1/probe/forgotten',
        'POST /v1/probe/forgotten',
        'PUT /v1/probe/forgotten',
      ]);
      expect(test.logs.text()).toContain('route changes something without an audit decision');

      // The trail learns audited routes from the same table: a route added from outside is recorded too.
      const admin = await issueUserKey(
        test.api.repositories,
        await createLocalUser(test.api.repositories, 'boss'),
        'admin',
      );
      const response = await test.request({ method: 'DELETE', url: '/v1/probe/decided/k-1', key: admin.key });
      expect(response.statusCode).toBe(200);
      expect(
        (await test.api.repositories.audit.list({ action: auditActions.apiKeyRevoke })).items,
      ).toMatchObject([
        {
          outcome: 'succeeded',
          target: { kind: 'api-key', id: 'k-1' },
          requestId: response.headers['x-request-id'],
        },
      ]);
    } finally {
      await test.close();
    }
  });
});
