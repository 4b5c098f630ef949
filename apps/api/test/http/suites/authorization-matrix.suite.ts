import { isDeepStrictEqual } from 'node:util';
import type { Role, Scope } from '@agentdesk/authz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteInventory, type RouteEntry } from '../../../src/routes/route-inventory';
import { DEFAULT_WAYS_IN, type WayIn } from '../../../src/routes/route-policy';
import type { AuditEntry, Repositories, User } from '@agentdesk/storage';
import type { Engine } from '../../support/engines';
import {
  createLocalUser,
  createSession,
  issuePortalKey,
  issueUserKey,
  missingId,
  openConsoleSession,
  type IssuedKey,
} from '../../support/fixtures';
import { injectOpenStream } from '../../support/inject-open-stream';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/*
 * The authorization matrix: every route the running app exposes × every kind of caller × the
 * caller's own resource, someone else's and a missing one. Routes come from the app's route
 * inventory, so a new route fails here until it has an expectation below (and a policy).
 * Expected answers are written independently of the implementation: which roles may call each
 * route, whether it reaches only the effective user's data or anyone's, and which routes audit.
 */

type Target =
  | 'collection'
  | 'session'
  | 'session-tool-result'
  | 'api-key'
  | 'lab-run'
  | 'sandbox-build'
  | 'console-session'
  | 'user'
  | 'qa-suite'
  | 'qa-run';

/** The tool call whose stored result a `session-tool-result` target holds (`:toolCallId` in the path). */
const matrixToolCallId = 'call_matrix';

/** The one case of a QA suite a `qa-suite` or `qa-run` target holds (`:caseId`; its one target is `:targetIndex` 0). */
const matrixCaseId = 'matrix-case';

/** A one-case, one-target QA suite definition. */
const matrixSuiteDefinition = (name: string) => ({
  name,
  targets: [{ model: 'gpt-test', strict: true }],
  timeoutMs: 60_000,
  cases: [{ id: matrixCaseId, prompt: 'Say ok', schema: { type: 'object' }, assertions: [] }],
});

/** A lab run the `cases-from-lab` route saves as a case (made before the matrix runs). */
let matrixLabRunId = '';

interface RouteExpectation {
  readonly scope: Scope;
  /** Roles that may call the function at all (others: 403). */
  readonly roles: readonly Role[];
  /** `own`: only the effective user's data (foreign = 404); `any`: every user's data. */
  readonly reach: 'own' | 'any';
  readonly target: Target;
  readonly success: number;
  /**
   * What the route audits; nothing else writes a record. `session-read`: one record when the
   * session is another user's; `listing`: one record per successful listing (filter and count);
   * `run-read`: one record when another principal made the run; `mutation`: an `@Audited` route,
   * whose record the audit trail writes for every call of a recognised caller, with its outcome
   * (see `trailRecordMismatches`).
   */
  readonly audit?:
    | {
        readonly kind: 'session-read' | 'listing' | 'run-read' | 'person-read' | 'export';
        readonly action: string;
      }
    | MutationAudit;
  /** The ways in the route takes (default: an API key or a console session); others get 401. */
  readonly ways?: readonly WayIn[];
  readonly body?: (unique: string) => unknown;
  /** A query string the route requires (e.g. the words of a search), without the `?`. */
  readonly query?: string;
  /** OpenAI-compatible routes answer errors in OpenAI's shape, so OpenAI clients can read them. */
  readonly errorShape?: 'agentdesk' | 'openai';
  /**
   * The route needs the sandbox, which this matrix's app runs without (AGENTDESK_SANDBOX_ENABLED=false):
   * an authorized caller gets 404 ("disabled on this server") after every authorization check passed.
   * The sandbox suites cover the successes on a real engine.
   */
  readonly needsSandboxEngine?: true;
  /**
   * A stateless route that acts for the end user named in `X-End-User-Id` (the one owner
   * resolution): a name the caller may not use is refused (403) before any work; naming nobody is fine.
   */
  readonly actsForNamedEndUser?: true;
  /**
   * A success is an event stream that stays open until the client leaves (a live feed): the matrix
   * reads the answer's status and headers, and the body only when it is not the stream.
   */
  readonly openStream?: true;
}

/**
 * An `@Audited` route. `target`: whose user a success names (`actor`: the caller's own; `resource`:
 * the target's owner; `none`: no user's; a function: the one its answer names, e.g. a new key's
 * holder). `failedSignIns`: refused credentials of a way the route takes are recorded too.
 */
interface MutationAudit {
  readonly kind: 'mutation';
  readonly action: string;
  readonly target: 'actor' | 'resource' | 'none' | ((answer: InjectResponse) => string | null);
  readonly failedSignIns?: true;
}

const ownDataRoles: readonly Role[] = ['user', 'portal', 'admin'];
const readAnyRoles: readonly Role[] = ['viewer', 'admin'];
/** QA suites: read by QA, viewers and admins; changed and run by QA and admins. */
const suiteReadRoles: readonly Role[] = ['viewer', 'qa', 'admin'];
const suiteWriteRoles: readonly Role[] = ['qa', 'admin'];

/** Every protected route and what each caller must get. */
export const protectedRouteExpectations: Readonly<Record<string, RouteExpectation>> = {
  'GET /v1/me': {
    scope: 'identity:read',
    roles: ['user', 'portal', 'viewer', 'admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
  },
  'POST /v1/sessions': {
    scope: 'sessions:write',
    roles: ownDataRoles,
    reach: 'own',
    target: 'collection',
    success: 201,
    body: () => ({ label: 'matrix' }),
  },
  'GET /v1/sessions': {
    scope: 'sessions:read',
    roles: ownDataRoles,
    reach: 'own',
    target: 'collection',
    success: 200,
  },
  'GET /v1/sessions/:id': {
    scope: 'sessions:read',
    roles: ownDataRoles,
    reach: 'own',
    target: 'session',
    success: 200,
  },
  'PATCH /v1/sessions/:id': {
    scope: 'sessions:write',
    roles: ownDataRoles,
    reach: 'own',
    target: 'session',
    success: 200,
    body: () => ({ label: 'renamed' }),
  },
  'POST /v1/sessions/:id/close': {
    scope: 'sessions:write',
    roles: ownDataRoles,
    reach: 'own',
    target: 'session',
    success: 200,
  },
  'DELETE /v1/sessions/:id': {
    scope: 'sessions:write',
    roles: ownDataRoles,
    reach: 'own',
    target: 'session',
    success: 204,
    audit: { kind: 'mutation', action: 'session.delete', target: 'resource' },
  },
  'GET /v1/sessions/:id/messages': {
    scope: 'messages:read',
    roles: ownDataRoles,
    reach: 'own',
    target: 'session',
    success: 200,
  },
  'POST /v1/sessions/:id/messages': {
    scope: 'messages:write',
    roles: ownDataRoles,
    reach: 'own',
    target: 'session',
    success: 200,
    body: () => ({ content: 'hello from the matrix' }),
  },
  'POST /v1/chat/completions': {
    scope: 'completions:create',
    roles: ['user', 'portal', 'admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    errorShape: 'openai',
    actsForNamedEndUser: true,
    body: () => ({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello from the matrix' }] }),
  },
  'GET /v1/models': {
    scope: 'completions:create',
    roles: ['user', 'portal', 'admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    errorShape: 'openai',
  },
  'POST /v1/admin/structured-output/runs': {
    scope: 'lab:run',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 201,
    body: (unique) => ({
      name: `matrix-${unique}`,
      schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      prompt: 'Say ok',
      targets: [{ model: 'gpt-test' }],
    }),
    audit: { kind: 'mutation', action: 'lab.run.create', target: 'none' },
  },
  'GET /v1/admin/structured-output/runs': {
    scope: 'lab:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'lab.runs.list' },
  },
  'GET /v1/admin/structured-output/runs/:id': {
    scope: 'lab:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'lab-run',
    success: 200,
    audit: { kind: 'run-read', action: 'lab.run.read' },
  },
  'GET /v1/admin/sessions': {
    scope: 'sessions:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'admin.sessions.list' },
  },
  'GET /v1/admin/sessions/:id': {
    scope: 'messages:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'session',
    success: 200,
    audit: { kind: 'session-read', action: 'admin.session.read' },
  },
  'GET /v1/admin/sessions/:id/messages': {
    scope: 'messages:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'session',
    success: 200,
    audit: { kind: 'session-read', action: 'admin.session.messages.read' },
  },
  'GET /v1/admin/sessions/:id/live': {
    scope: 'messages:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'session',
    success: 200,
    audit: { kind: 'session-read', action: 'admin.session.live.read' },
    openStream: true,
  },
  'GET /v1/admin/sessions/:id/tool-results/:toolCallId': {
    scope: 'messages:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'session-tool-result',
    success: 200,
    audit: { kind: 'session-read', action: 'admin.session.tool-result.read' },
  },
  'GET /v1/admin/users': {
    scope: 'users:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'admin.users.list' },
  },
  'GET /v1/admin/users/:id': {
    scope: 'users:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'user',
    success: 200,
    audit: { kind: 'person-read', action: 'admin.user.read' },
  },
  'GET /v1/admin/api-keys': {
    scope: 'api-keys:read',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'admin.api-keys.list' },
  },
  'POST /v1/admin/api-keys': {
    scope: 'api-keys:write',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 201,
    body: (unique) => ({ role: 'user', label: 'matrix', externalId: `matrix-${unique}` }),
    audit: {
      kind: 'mutation',
      action: 'admin.api-key.create',
      target: (answer) => answer.json<{ apiKey: { ownerUserId: string | null } }>().apiKey.ownerUserId,
    },
  },
  'DELETE /v1/admin/api-keys/:id': {
    scope: 'api-keys:write',
    roles: ['admin'],
    reach: 'any',
    target: 'api-key',
    success: 200,
    audit: { kind: 'mutation', action: 'admin.api-key.revoke', target: 'resource' },
  },
  'GET /v1/admin/audit': {
    scope: 'audit:read',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'admin.audit.list' },
  },
  'GET /v1/admin/search/messages': {
    scope: 'messages:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    query: 'q=matrix',
    audit: { kind: 'listing', action: 'admin.messages.search' },
  },
  // Exports: the list's scope, one record per export (its filter, format, rows sent, how it ended).
  'GET /v1/admin/exports/sessions': {
    scope: 'sessions:read-any',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'export', action: 'admin.export' },
  },
  'GET /v1/admin/exports/usage': {
    scope: 'usage:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'export', action: 'admin.export' },
  },
  'GET /v1/admin/exports/users': {
    scope: 'users:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'export', action: 'admin.export' },
  },
  'GET /v1/admin/exports/audit': {
    scope: 'audit:read',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'export', action: 'admin.export' },
  },
  'GET /v1/admin/usage': {
    scope: 'usage:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    query: 'groupBy=user&from=2026-01-01&to=2026-01-31',
    audit: { kind: 'listing', action: 'admin.usage.read' },
  },
  // The price table names no user: readable with usage, not audited; adding a version is audited.
  'GET /v1/admin/model-prices': {
    scope: 'usage:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
  },
  'POST /v1/admin/model-prices': {
    scope: 'prices:write',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 201,
    body: (unique) => ({
      model: `matrix-${unique}`,
      provider: 'openai',
      inputUsdPerMillion: '1.00',
      outputUsdPerMillion: '2.00',
    }),
    audit: { kind: 'mutation', action: 'admin.model-price.add', target: 'none' },
  },
  'GET /v1/admin/sandbox/image': {
    scope: 'sandbox:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    needsSandboxEngine: true,
  },
  'POST /v1/admin/sandbox/image/rebuild': {
    scope: 'sandbox:manage',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 202,
    body: () => ({ force: true }),
    needsSandboxEngine: true,
    audit: { kind: 'mutation', action: 'admin.sandbox.image.rebuild', target: 'none' },
  },
  'POST /v1/admin/sandbox/image/repin': {
    scope: 'sandbox:manage',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    needsSandboxEngine: true,
    audit: { kind: 'mutation', action: 'admin.sandbox.image.repin', target: 'none' },
  },
  'GET /v1/admin/sandbox/builds': {
    scope: 'sandbox:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
  },
  'GET /v1/admin/sandbox/builds/:id': {
    scope: 'sandbox:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'sandbox-build',
    success: 200,
  },
  'GET /v1/admin/sandbox/builds/:id/events': {
    scope: 'sandbox:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'sandbox-build',
    success: 200,
  },
  'GET /v1/admin/sandbox/containers': {
    scope: 'sandbox:read',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'admin.sandbox.containers.list' },
    needsSandboxEngine: true,
  },
  'DELETE /v1/admin/sandbox/containers/:id': {
    scope: 'sandbox:manage',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 204,
    needsSandboxEngine: true,
    audit: { kind: 'mutation', action: 'admin.sandbox.container.remove', target: 'none' },
  },
  'POST /v1/console-sessions': {
    scope: 'console:sign-in',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 201,
    body: () => ({ userAgent: 'matrix' }),
    ways: ['api-key'],
    audit: { kind: 'mutation', action: 'console.sign-in', target: 'actor', failedSignIns: true },
  },
  'DELETE /v1/console-sessions/current': {
    scope: 'console:sign-in',
    roles: readAnyRoles,
    reach: 'any',
    target: 'collection',
    success: 204,
    ways: ['console-session'],
    audit: { kind: 'mutation', action: 'console.sign-out', target: 'actor' },
  },
  'GET /v1/admin/console-sessions': {
    scope: 'console-sessions:read',
    roles: ['admin'],
    reach: 'any',
    target: 'collection',
    success: 200,
    audit: { kind: 'listing', action: 'admin.console-sessions.list' },
  },
  'DELETE /v1/admin/console-sessions/:id': {
    scope: 'console-sessions:write',
    roles: ['admin'],
    reach: 'any',
    target: 'console-session',
    success: 200,
    audit: { kind: 'mutation', action: 'admin.console-session.end', target: 'resource' },
  },
  'DELETE /v1/admin/users/:id/console-sessions': {
    scope: 'console-sessions:write',
    roles: ['admin'],
    reach: 'any',
    target: 'user',
    success: 200,
    audit: { kind: 'mutation', action: 'admin.console-sessions.end-all', target: 'resource' },
  },
  // QA suites hold no user's data: "own" and "foreign" are both just an existing suite or run.
  'GET /v1/qa/suites': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'collection',
    success: 200,
  },
  'POST /v1/qa/suites': {
    scope: 'suites:write',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'collection',
    success: 201,
    body: (unique) => ({ definition: matrixSuiteDefinition(`matrix-${unique}`) }),
    audit: { kind: 'mutation', action: 'qa.suite.create', target: 'none' },
  },
  'POST /v1/qa/suites/import': {
    scope: 'suites:write',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'collection',
    success: 201,
    body: (unique) => ({ format: 'json', text: JSON.stringify(matrixSuiteDefinition(`matrix-${unique}`)) }),
    audit: { kind: 'mutation', action: 'qa.suite.import', target: 'none' },
  },
  'GET /v1/qa/suites/:id': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
  },
  'PUT /v1/qa/suites/:id': {
    scope: 'suites:write',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
    body: (unique) => ({ definition: matrixSuiteDefinition(`matrix-${unique}`), baseVersion: 1 }),
    audit: { kind: 'mutation', action: 'qa.suite.save', target: 'none' },
  },
  'POST /v1/qa/suites/:id/import': {
    scope: 'suites:write',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
    body: (unique) => ({
      format: 'json',
      text: JSON.stringify(matrixSuiteDefinition(`matrix-${unique}`)),
      baseVersion: 1,
    }),
    audit: { kind: 'mutation', action: 'qa.suite.save', target: 'none' },
  },
  'GET /v1/qa/suites/:id/versions/:version': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
  },
  'GET /v1/qa/suites/:id/export': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
  },
  'POST /v1/qa/suites/:id/cases-from-lab': {
    scope: 'suites:write',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
    body: () => ({ labRunId: matrixLabRunId, caseId: 'from-lab', baseVersion: 1 }),
    audit: { kind: 'mutation', action: 'qa.suite.save', target: 'none' },
  },
  'POST /v1/qa/suites/:id/runs': {
    scope: 'suites:run',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 201,
    body: () => ({}),
    audit: { kind: 'mutation', action: 'qa.run.start', target: 'none' },
  },
  'GET /v1/qa/suites/:id/runs': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-suite',
    success: 200,
  },
  'GET /v1/qa/runs/:id': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-run',
    success: 200,
  },
  'GET /v1/qa/runs/:id/events': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-run',
    success: 200,
    openStream: true,
  },
  'POST /v1/qa/runs/:id/cancel': {
    scope: 'suites:run',
    roles: suiteWriteRoles,
    reach: 'any',
    target: 'qa-run',
    success: 200,
    audit: { kind: 'mutation', action: 'qa.run.cancel', target: 'none' },
  },
  'GET /v1/qa/runs/:id/cells/:caseId/:targetIndex': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-run',
    success: 200,
  },
  'GET /v1/qa/runs/:id/compare': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-run',
    success: 200,
  },
  'GET /v1/qa/runs/:id/compare/:caseId/:targetIndex': {
    scope: 'suites:read',
    roles: suiteReadRoles,
    reach: 'any',
    target: 'qa-run',
    success: 200,
  },
};

/** Public routes: everyone gets the same answer (200 unless below), with or without a (valid, revoked, malformed) key. */
export const publicRouteUrls: Readonly<Record<string, string>> = {
  'GET /': '/',
  'GET /healthz': '/healthz',
  'GET /readyz': '/readyz',
  'GET /readyz/sandbox': '/readyz/sandbox',
  'GET /metrics': '/metrics',
  'GET /openapi.json': '/openapi.json',
  'GET /docs': '/docs',
  'GET /docs/:asset': '/docs/swagger-initializer.js',
  // Single sign-on: the flow's own credentials (cookie, provider's answer, one-time code) stand in for a key.
  'GET /v1/sso': '/v1/sso',
  'GET /v1/sso/start': '/v1/sso/start',
  'GET /v1/sso/callback': '/v1/sso/callback',
  'POST /v1/sso/exchange': '/v1/sso/exchange',
};

/** This matrix's app runs without a sandbox: its readiness says so, to everyone alike. */
const publicRouteStatus: Readonly<Record<string, number>> = {
  '/readyz/sandbox': 503,
  // SSO is not configured in this matrix; the exchange is a POST route (a GET is 405).
  '/v1/sso/start': 404,
  '/v1/sso/callback': 404,
  '/v1/sso/exchange': 405,
};

interface Fixtures {
  readonly repositories: Repositories;
  readonly users: Readonly<
    Record<'alice' | 'bob' | 'viewer' | 'qa' | 'admin' | 'carolP1' | 'daveP1' | 'carolP2', User>
  >;
  readonly keys: Readonly<
    Record<
      'alice' | 'bob' | 'viewer' | 'qa' | 'admin' | 'portal1' | 'portal2' | 'portal3Untrusted' | 'revoked',
      IssuedKey
    >
  >;
  /** A console session of the admin's that was signed out. */
  readonly endedConsoleToken: string;
}

type CallerKind = 'acts-as-user' | 'portal-without-end-user' | 'portal-not-trusted' | 'unauthenticated';

interface MatrixCaller {
  readonly name: string;
  readonly kind: CallerKind;
  readonly role?: Role;
  /** The way in the caller presents (`none`: no credential at all); API keys unless said. */
  readonly way?: WayIn | 'none';
  /** Per cell: a console session caller signs in afresh (a route may end the session it came with). */
  readonly headers: (fixtures: Fixtures) => Record<string, string> | Promise<Record<string, string>>;
  /** The effective user ("own" resources); callers without one use alice's. */
  readonly own: (fixtures: Fixtures) => User;
  /** Someone else, chosen to catch the likely leak for this caller. */
  readonly foreign: (fixtures: Fixtures) => User;
  /** The actor an audit record must name. */
  readonly actor?: (fixtures: Fixtures) => { principalId: string; apiKeyId: string };
}

const bearer = (key: IssuedKey): Record<string, string> => ({ authorization: `Bearer ${key.key}` });
const consoleSession = async (fixtures: Fixtures, key: IssuedKey): Promise<Record<string, string>> => ({
  'x-console-session': (await openConsoleSession(fixtures.repositories, key)).token,
});

export const matrixCallers: readonly MatrixCaller[] = [
  {
    name: 'user',
    kind: 'acts-as-user',
    role: 'user',
    headers: (f) => bearer(f.keys.alice),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.bob,
  },
  {
    name: 'another user',
    kind: 'acts-as-user',
    role: 'user',
    headers: (f) => bearer(f.keys.bob),
    own: (f) => f.users.bob,
    foreign: (f) => f.users.alice,
  },
  {
    name: 'portal acting for the owner',
    kind: 'acts-as-user',
    role: 'portal',
    headers: (f) => ({ ...bearer(f.keys.portal1), 'x-end-user-id': 'carol' }),
    own: (f) => f.users.carolP1,
    foreign: (f) => f.users.daveP1,
  },
  {
    name: 'portal acting for someone else',
    kind: 'acts-as-user',
    role: 'portal',
    headers: (f) => ({ ...bearer(f.keys.portal1), 'x-end-user-id': 'dave' }),
    own: (f) => f.users.daveP1,
    foreign: (f) => f.users.carolP1,
  },
  {
    name: 'other portal naming the same end-user id',
    kind: 'acts-as-user',
    role: 'portal',
    headers: (f) => ({ ...bearer(f.keys.portal2), 'x-end-user-id': 'carol' }),
    own: (f) => f.users.carolP2,
    foreign: (f) => f.users.carolP1,
  },
  {
    name: 'untrusted portal naming an end user',
    kind: 'portal-not-trusted',
    role: 'portal',
    headers: (f) => ({ ...bearer(f.keys.portal3Untrusted), 'x-end-user-id': 'carol' }),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.carolP1,
  },
  {
    name: 'portal without an end user',
    kind: 'portal-without-end-user',
    role: 'portal',
    headers: (f) => bearer(f.keys.portal1),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.carolP1,
  },
  {
    name: 'viewer',
    kind: 'acts-as-user',
    role: 'viewer',
    headers: (f) => bearer(f.keys.viewer),
    own: (f) => f.users.viewer,
    foreign: (f) => f.users.alice,
    actor: (f) => ({ principalId: f.users.viewer.id, apiKeyId: f.keys.viewer.stored.id }),
  },
  {
    name: 'qa',
    kind: 'acts-as-user',
    role: 'qa',
    headers: (f) => bearer(f.keys.qa),
    own: (f) => f.users.qa,
    foreign: (f) => f.users.alice,
    actor: (f) => ({ principalId: f.users.qa.id, apiKeyId: f.keys.qa.stored.id }),
  },
  {
    name: 'admin',
    kind: 'acts-as-user',
    role: 'admin',
    headers: (f) => bearer(f.keys.admin),
    own: (f) => f.users.admin,
    foreign: (f) => f.users.alice,
    actor: (f) => ({ principalId: f.users.admin.id, apiKeyId: f.keys.admin.stored.id }),
  },
  {
    name: 'viewer (console session)',
    kind: 'acts-as-user',
    role: 'viewer',
    way: 'console-session',
    headers: (f) => consoleSession(f, f.keys.viewer),
    own: (f) => f.users.viewer,
    foreign: (f) => f.users.alice,
    actor: (f) => ({ principalId: f.users.viewer.id, apiKeyId: f.keys.viewer.stored.id }),
  },
  {
    name: 'admin (console session)',
    kind: 'acts-as-user',
    role: 'admin',
    way: 'console-session',
    headers: (f) => consoleSession(f, f.keys.admin),
    own: (f) => f.users.admin,
    foreign: (f) => f.users.alice,
    actor: (f) => ({ principalId: f.users.admin.id, apiKeyId: f.keys.admin.stored.id }),
  },
  {
    name: 'ended console session',
    kind: 'unauthenticated',
    way: 'console-session',
    headers: (f) => ({ 'x-console-session': f.endedConsoleToken }),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.bob,
  },
  {
    name: 'no key',
    kind: 'unauthenticated',
    way: 'none',
    headers: () => ({}),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.bob,
  },
  {
    name: 'revoked key',
    kind: 'unauthenticated',
    headers: (f) => bearer(f.keys.revoked),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.bob,
  },
  {
    name: 'malformed key',
    kind: 'unauthenticated',
    headers: (f) => ({ 'x-api-key': `${f.keys.alice.key}x` }),
    own: (f) => f.users.alice,
    foreign: (f) => f.users.bob,
  },
];

type ResourceCase = 'own' | 'foreign' | 'missing' | 'collection';

/** The ways a route takes, from the expectations above. */
const waysOf = (route: RouteExpectation): readonly WayIn[] => route.ways ?? DEFAULT_WAYS_IN;

/** The caller presents a credential of a way the route does not take (refused before it is judged). */
function presentsRefusedWay(caller: MatrixCaller, route: RouteExpectation): boolean {
  const way = caller.way ?? 'api-key';
  return way !== 'none' && !waysOf(route).includes(way);
}

/**
 * Which of the 401 bodies a refused caller gets: one per way in (a revoked key and an unknown one
 * alike, an ended session and an unknown one alike), and the "not this way" body per pair of ways.
 */
function unauthenticatedBodyKind(caller: MatrixCaller, route: RouteExpectation): string {
  const way = caller.way ?? 'api-key';
  if (presentsRefusedWay(caller, route)) return `${way} on a route taking ${waysOf(route).join(', ')}`;
  return way === 'none' ? waysOf(route)[0]! : way;
}

/**
 * The roles a route lets in: its own list, and `qa` wherever a viewer may go (the qa role is a
 * viewer who also writes and runs suites — `libs/authz` role-scopes; checked there scope by scope).
 */
function rolesAllowed(route: RouteExpectation): readonly Role[] {
  return route.roles.includes('viewer') && !route.roles.includes('qa') ? [...route.roles, 'qa'] : route.roles;
}

/** What the caller must get, from the expectations above only. */
function expectedStatus(caller: MatrixCaller, route: RouteExpectation, resourceCase: ResourceCase): number {
  if (caller.kind === 'unauthenticated') return 401;
  if (presentsRefusedWay(caller, route)) return 401;
  if (caller.role === undefined || !rolesAllowed(route).includes(caller.role)) return 403;
  if (route.needsSandboxEngine) return 404;
  if (route.actsForNamedEndUser && caller.kind === 'portal-not-trusted') return 403;
  if (route.reach === 'own') {
    if (caller.kind !== 'acts-as-user') return 403;
    if (resourceCase === 'collection' || resourceCase === 'own') return route.success;
    return 404;
  }
  return resourceCase === 'missing' ? 404 : route.success;
}

interface Mismatch {
  readonly cell: string;
  readonly expected: string;
  readonly actual: string;
}

const auditReason = 'matrix: QA check';
/** Every matrix request carries a client request id: audit records must keep it apart from the server's. */
const clientRequestId = 'matrix-client-request-id';

export function describeAuthorizationMatrix(engine: Engine): void {
  describe(`authorization matrix (${engine})`, () => {
    let test: TestApi;
    let fixtures: Fixtures;
    let routes: RouteEntry[];
    // One 401 body per error shape: a caller can never tell a revoked key from an unknown one.
    const unauthenticatedBodies = new Map<string, Set<string>>();

    beforeAll(async () => {
      test = await startTestApi(engine);
      const repositories = test.api.repositories;
      const alice = await createLocalUser(repositories, 'alice');
      const bob = await createLocalUser(repositories, 'bob');
      const viewer = await createLocalUser(repositories, 'qa-viewer');
      const qa = await createLocalUser(repositories, 'qa-engineer');
      const admin = await createLocalUser(repositories, 'second-admin');
      const carolP1 = await repositories.users.ensurePortalUser('portal-1', 'carol');
      const daveP1 = await repositories.users.ensurePortalUser('portal-1', 'dave');
      const carolP2 = await repositories.users.ensurePortalUser('portal-2', 'carol');
      const revoked = await issueUserKey(repositories, alice);
      await repositories.apiKeys.revoke(revoked.stored.id);
      const adminKey = await issueUserKey(repositories, admin, 'admin');
      const ended = await openConsoleSession(repositories, adminKey);
      await repositories.consoleSessions.end(ended.id, 'sign-out');
      fixtures = {
        repositories,
        users: { alice, bob, viewer, qa, admin, carolP1, daveP1, carolP2 },
        keys: {
          alice: await issueUserKey(repositories, alice),
          bob: await issueUserKey(repositories, bob),
          viewer: await issueUserKey(repositories, viewer, 'viewer'),
          qa: await issueUserKey(repositories, qa, 'qa'),
          admin: adminKey,
          portal1: await issuePortalKey(repositories, 'portal-1', true),
          portal2: await issuePortalKey(repositories, 'portal-2', true),
          portal3Untrusted: await issuePortalKey(repositories, 'portal-3', false),
          revoked,
        },
        endedConsoleToken: ended.token,
      };
      matrixLabRunId = (
        await repositories.structuredOutputRuns.create({
          actorPrincipalId: admin.id,
          name: 'matrix lab run',
          schema: { type: 'object' },
          prompt: 'matrix',
          settings: {},
          targets: [],
          results: [],
          startedAt: new Date(),
          finishedAt: new Date(),
        })
      ).id;
      routes = test.api.app.get(RouteInventory).routes();
    });

    afterAll(async () => {
      await test?.close();
    });

    it('has an expectation for every route of the running app, and every route has the expected policy', () => {
      const described = new Set([
        ...Object.keys(protectedRouteExpectations),
        ...Object.keys(publicRouteUrls),
      ]);
      const inventory = routes.map((route) => `${route.method} ${route.path}`);
      expect(
        inventory.filter((route) => !described.has(route)),
        'routes without an expectation in this matrix',
      ).toEqual([]);
      expect(
        [...described].filter((route) => !inventory.includes(route)),
        'expectations for routes the app does not have',
      ).toEqual([]);
      for (const route of routes) {
        const name = `${route.method} ${route.path}`;
        const expectation = protectedRouteExpectations[name];
        expect(route.policy, name).toEqual(
          expectation === undefined
            ? { kind: 'public' }
            : { kind: 'scope', scope: expectation.scope, ways: waysOf(expectation) },
        );
      }
    });

    it('answers public routes to everyone', async () => {
      for (const caller of matrixCallers) {
        for (const url of Object.values(publicRouteUrls)) {
          const response = await test.api.app.inject({
            method: 'GET',
            url,
            headers: await caller.headers(fixtures),
          });
          expect(response.statusCode, `${caller.name} GET ${url}`).toBe(publicRouteStatus[url] ?? 200);
        }
      }
    });

    it.each(matrixCallers.map((caller) => [caller.name, caller] as const))(
      '%s: every protected route × own / foreign / missing',
      async (_name, caller) => {
        const mismatches: Mismatch[] = [];
        const notFoundBodies = new Map<string, Set<string>>();
        for (const route of routes) {
          const name = `${route.method} ${route.path}`;
          const expectation = protectedRouteExpectations[name];
          if (expectation === undefined) continue;
          const cases: ResourceCase[] =
            expectation.target === 'collection' ? ['collection'] : ['own', 'foreign', 'missing'];
          for (const resourceCase of cases) {
            const cell = `${caller.name} × ${name} × ${resourceCase}`;
            const resource = await prepareResource(fixtures, caller, expectation.target, resourceCase);
            const auditMarker = await newestAuditId(fixtures.repositories);
            const unique = `${Math.random().toString(36).slice(2)}`;
            const body = expectation.body?.(unique);
            const headers: Record<string, string> = {
              ...(await caller.headers(fixtures)),
              'x-audit-reason': auditReason,
              'x-request-id': clientRequestId,
            };
            if (body !== undefined) headers['content-type'] = 'application/json';
            const injected = {
              method: route.method as 'GET',
              url:
                route.path
                  .replace(':id', resource.id)
                  .replace(':toolCallId', matrixToolCallId)
                  .replace(':caseId', matrixCaseId)
                  .replace(':targetIndex', '0')
                  .replace(':version', '1') +
                (expectation.query === undefined ? '' : `?${expectation.query}`),
              headers,
              ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
            };
            const response = expectation.openStream
              ? await injectOpenStream(test.api.app, injected)
              : await test.api.app.inject(injected);

            const expected = expectedStatus(caller, expectation, resourceCase);
            if (response.statusCode !== expected) {
              mismatches.push({
                cell,
                expected: String(expected),
                actual: `${response.statusCode} ${response.body.slice(0, 200)}`,
              });
            }
            const shape = expectation.errorShape ?? 'agentdesk';
            checkErrorBody(response, cell, mismatches, shape);
            if (response.statusCode === 401) {
              // OpenAI's shape has one 401 message for every way in.
              const kind =
                shape === 'openai' ? shape : `${shape}: ${unauthenticatedBodyKind(caller, expectation)}`;
              const bodies = unauthenticatedBodies.get(kind) ?? new Set<string>();
              bodies.add(withoutRequestId(response, shape));
              unauthenticatedBodies.set(kind, bodies);
            }
            if (response.statusCode === 404) {
              const bodies = notFoundBodies.get(name) ?? new Set<string>();
              bodies.add(withoutRequestId(response, shape));
              notFoundBodies.set(name, bodies);
            }

            const written = await auditEntriesSince(fixtures.repositories, auditMarker);
            const audit = expectation.audit;
            if (audit?.kind === 'mutation') {
              mismatches.push(
                ...trailRecordMismatches({
                  cell,
                  caller,
                  expectation,
                  audit,
                  response,
                  written,
                  resource,
                  fixtures,
                }),
              );
              continue;
            }
            const succeeded = response.statusCode === expectation.success;
            const mustAudit =
              audit !== undefined &&
              succeeded &&
              (audit.kind === 'listing' || audit.kind === 'export' || resourceCase === 'foreign');
            if (!mustAudit && written.length > 0) {
              mismatches.push({
                cell,
                expected: 'no audit record',
                actual: `${written.length} audit record(s)`,
              });
            }
            if (mustAudit) {
              const actor = caller.actor?.(fixtures);
              const serverRequestId = response.headers['x-request-id'];
              const expectedEntry = {
                action: audit.action,
                actorPrincipalId: actor?.principalId,
                actorApiKeyId: actor?.apiKeyId,
                targetUserId:
                  audit.kind === 'session-read'
                    ? resource.ownerUserId
                    : audit.kind === 'person-read'
                      ? resource.id
                      : null,
                sessionId: audit.kind === 'session-read' ? resource.id : null,
                reason: auditReason,
                requestId: serverRequestId,
                clientRequestId,
                details:
                  audit.kind === 'listing'
                    ? {
                        // The listing's filter is its query (paging parameters aside).
                        filter: Object.fromEntries(new URLSearchParams(expectation.query ?? '')),
                        count: response.json<{ items: unknown[] }>().items.length,
                      }
                    : audit.kind === 'run-read'
                      ? { recordId: resource.id, ownerPrincipalId: caller.foreign(fixtures).id }
                      : audit.kind === 'person-read'
                        ? { filter: {}, count: 1 }
                        : audit.kind === 'export'
                          ? {
                              list: route.path.split('/').at(-1),
                              format: 'csv',
                              filter: Object.fromEntries(new URLSearchParams(expectation.query ?? '')),
                              // The CSV's records after its header row.
                              count: response.body.split('\r\n').length - 2,
                              end: 'complete',
                            }
                          : null,
              };
              const actual = written.map((entry) => ({
                action: entry.action,
                actorPrincipalId: entry.actorPrincipalId,
                actorApiKeyId: entry.actorApiKeyId,
                targetUserId: entry.targetUserId,
                sessionId: entry.sessionId,
                reason: entry.reason,
                requestId: entry.requestId,
                clientRequestId: entry.clientRequestId,
                details: entry.details,
              }));
              if (!isDeepStrictEqual(actual, [expectedEntry]) || serverRequestId === clientRequestId) {
                mismatches.push({
                  cell,
                  expected: `one audit record ${JSON.stringify(expectedEntry)}`,
                  actual: JSON.stringify(actual),
                });
              }
            }
          }
        }
        expect(mismatches).toEqual([]);
        // Someone else's resource answers exactly like a missing one.
        for (const [route, bodies] of notFoundBodies)
          expect([...bodies], `404 bodies of ${route}`).toHaveLength(1);
        // Every 401 so far carries one and the same body (per error shape).
        for (const [shape, bodies] of unauthenticatedBodies)
          expect([...bodies], `401 bodies (${shape})`).toHaveLength(1);
      },
    );
  });
}

/**
 * The records of one call of an `@Audited` route, from the expectations above (the audit trail's
 * rules): a caller the guard recognised — the scope refusing it or not — gets one record with how
 * the call ended; nobody recognised gets none, except a failed sign-in (a refused credential of a way
 * the route takes); a 429 gets none. A success names the user it concerned; what it changed in
 * detail is the route's own suite's to check.
 */
function trailRecordMismatches(cell: {
  cell: string;
  caller: MatrixCaller;
  expectation: RouteExpectation;
  audit: MutationAudit;
  response: InjectResponse;
  written: readonly AuditEntry[];
  resource: { id: string; ownerUserId: string | null };
  fixtures: Fixtures;
}): Mismatch[] {
  const { caller, expectation, audit, response, written } = cell;
  const way = caller.way ?? 'api-key';
  const refusedWay = presentsRefusedWay(caller, expectation);
  const recognised = caller.kind !== 'unauthenticated' && !refusedWay;
  const failedSignIn =
    audit.failedSignIns === true && caller.kind === 'unauthenticated' && way !== 'none' && !refusedWay;
  if (response.statusCode === 429 || !(recognised || failedSignIn)) {
    return written.length === 0
      ? []
      : [{ cell: cell.cell, expected: 'no audit record', actual: `${written.length} audit record(s)` }];
  }
  const actor = caller.actor?.(cell.fixtures);
  const succeeded = response.statusCode === expectation.success;
  const expected = {
    action: audit.action,
    outcome: succeeded ? 'succeeded' : response.statusCode < 500 ? 'refused' : 'failed',
    wayIn: way,
    actorPrincipalId: failedSignIn ? 'unauthenticated' : actor?.principalId,
    actorApiKeyId: failedSignIn ? null : actor?.apiKeyId,
    targetUserId: !succeeded
      ? null
      : audit.target === 'actor'
        ? actor?.principalId
        : audit.target === 'none'
          ? null
          : audit.target === 'resource'
            ? cell.resource.ownerUserId
            : audit.target(response),
    reason: auditReason,
    requestId: response.headers['x-request-id'],
    clientRequestId,
  };
  const actual = written.map((entry) => ({
    action: entry.action,
    outcome: entry.outcome,
    wayIn: entry.wayIn,
    // Callers without a named actor here (users, portals) are checked for the rest of the record.
    actorPrincipalId: expected.actorPrincipalId === undefined ? undefined : entry.actorPrincipalId,
    actorApiKeyId: expected.actorApiKeyId === undefined ? undefined : entry.actorApiKeyId,
    targetUserId: expected.targetUserId === undefined ? undefined : entry.targetUserId,
    reason: entry.reason,
    requestId: entry.requestId,
    clientRequestId: entry.clientRequestId,
  }));
  return isDeepStrictEqual(actual, [expected])
    ? []
    : [
        {
          cell: cell.cell,
          expected: `one audit record ${JSON.stringify(expected)}`,
          actual: JSON.stringify(actual),
        },
      ];
}

/** A fresh resource for one cell (mutating routes must not see each other's effects). */
async function prepareResource(
  fixtures: Fixtures,
  caller: MatrixCaller,
  target: Target,
  resourceCase: ResourceCase,
): Promise<{ id: string; ownerUserId: string | null }> {
  if (resourceCase === 'collection' || resourceCase === 'missing')
    return { id: missingId, ownerUserId: null };
  const owner = resourceCase === 'own' ? caller.own(fixtures) : caller.foreign(fixtures);
  if (target === 'lab-run') {
    // Lab runs belong to no user: "own" and "foreign" are both just an existing run.
    const run = await fixtures.repositories.structuredOutputRuns.create({
      actorPrincipalId: owner.id,
      name: 'matrix',
      schema: { type: 'object' },
      prompt: 'matrix',
      settings: {},
      targets: [],
      results: [],
      startedAt: new Date(),
      finishedAt: new Date(),
    });
    return { id: run.id, ownerUserId: null };
  }
  if (target === 'qa-suite' || target === 'qa-run') {
    const name = `matrix-${crypto.randomUUID()}`;
    const { suite } = await fixtures.repositories.qaSuites.create({
      name,
      description: null,
      definition: matrixSuiteDefinition(name),
      caseCount: 1,
      targetCount: 1,
      createdBy: owner.id,
      note: null,
    });
    if (target === 'qa-suite') return { id: suite.id, ownerUserId: null };
    // A running run (its cells wait: no engine was told) after a finished one, so it compares with `latest`.
    const newRun = () =>
      fixtures.repositories.qaRuns.create({
        suiteId: suite.id,
        suiteVersion: 1,
        createdBy: owner.id,
        options: {},
        cells: [{ caseIndex: 0, targetIndex: 0, caseId: matrixCaseId }],
      });
    await fixtures.repositories.qaRuns.cancel((await newRun()).id);
    return { id: (await newRun()).id, ownerUserId: null };
  }
  if (target === 'sandbox-build') {
    // Builds belong to no user: "own" and "foreign" are both a finished build in the history.
    const build = await fixtures.repositories.sandboxBuilds.start({
      id: crypto.randomUUID(),
      tag: 'agentdesk-sandbox:latest',
      force: true,
      trigger: 'admin',
      actorPrincipalId: owner.id,
      actorApiKeyId: null,
      startedAt: new Date(),
    });
    await fixtures.repositories.sandboxBuilds.finish(build.id, {
      status: 'built',
      imageIdBefore: null,
      imageIdAfter: 'sha256:matrix',
      error: null,
      events: [{ type: 'build-end', at: 1, status: 'built' }],
      finishedAt: new Date(),
    });
    return { id: build.id, ownerUserId: null };
  }
  if (target === 'api-key') {
    const key = await issueUserKey(fixtures.repositories, owner);
    return { id: key.stored.id, ownerUserId: owner.id };
  }
  if (target === 'console-session') {
    const key = await issueUserKey(fixtures.repositories, owner, 'viewer');
    const { id } = await openConsoleSession(fixtures.repositories, key);
    return { id, ownerUserId: owner.id };
  }
  if (target === 'user') return { id: owner.id, ownerUserId: owner.id };
  const session = await createSession(fixtures.repositories, owner, 'matrix', 2);
  if (target === 'session-tool-result')
    await fixtures.repositories.turnStore.keepToolResult(owner.id, {
      sessionId: session.id,
      toolCallId: matrixToolCallId,
      content: 'the full output of the tool',
    });
  return { id: session.id, ownerUserId: owner.id };
}

async function newestAuditId(repositories: Repositories): Promise<string | null> {
  const page = await repositories.audit.list({}, { limit: 1 });
  return page.items[0]?.id ?? null;
}

async function auditEntriesSince(repositories: Repositories, marker: string | null): Promise<AuditEntry[]> {
  const page = await repositories.audit.list({}, { limit: 20 });
  const index = page.items.findIndex((entry) => entry.id === marker);
  return index === -1 ? page.items : page.items.slice(0, index);
}

function withoutRequestId(response: InjectResponse, shape: 'agentdesk' | 'openai' = 'agentdesk'): string {
  if (shape === 'openai') {
    const body = response.json<{ error: { type: string; message: string; code: string | null } }>();
    return JSON.stringify({ type: body.error.type, message: body.error.message, code: body.error.code });
  }
  const body = response.json<{ error: { code: string; message: string; requestId: string | null } }>();
  return JSON.stringify({ code: body.error.code, message: body.error.message });
}

function checkErrorBody(
  response: InjectResponse,
  cell: string,
  mismatches: Mismatch[],
  shape: 'agentdesk' | 'openai' = 'agentdesk',
): void {
  if (response.statusCode < 400) return;
  if (shape === 'openai') {
    const body = response.json<{ error?: Record<string, unknown> }>();
    const ok =
      typeof body.error?.['message'] === 'string' &&
      typeof body.error['type'] === 'string' &&
      Object.keys(body.error).sort().join(',') === 'code,message,param,type';
    if (!ok)
      mismatches.push({
        cell,
        expected: "OpenAI's error body { error: { message, type, param, code } }",
        actual: response.body.slice(0, 200),
      });
    return;
  }
  const body = response.json<{ error?: { code?: unknown; message?: unknown; requestId?: unknown } }>();
  const ok =
    typeof body.error?.code === 'string' &&
    typeof body.error.message === 'string' &&
    body.error.requestId === response.headers['x-request-id'] &&
    Object.keys(body).length === 1 &&
    Object.keys(body.error).sort().join(',') === 'code,message,requestId';
  if (!ok)
    mismatches.push({
      cell,
      expected: 'the error body { error: { code, message, requestId } }',
      actual: response.body.slice(0, 200),
    });
}
