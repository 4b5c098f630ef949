import { scopes, userPrincipal, type Scope } from '@agentdesk/authz';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { navigationFor } from '../../shell/navigation';

/*
 * Every page checks its read scope, as data: each `page.tsx` under `app/` starts its default export
 * with `await requirePageScope('<scope>')`, or is named below as reading no data. A new page fails
 * here until it decides; the table is the decision per page, written apart from the code, so a
 * reviewer sees each change of it. The probes at the end prove the check bites.
 */

const readsNoData = 'reads no data';

/** Each page (its path under `app/`) and the scope it reads with, or why it needs none. */
const decisions: Readonly<Record<string, Scope | `${typeof readsNoData}: ${string}`>> = {
  'page.tsx': `${readsNoData}: it only sends the browser on to /sessions`,
  'sign-in/page.tsx': `${readsNoData}: the way in, for people not signed in yet`,
  'api-unavailable/page.tsx': `${readsNoData}: proxy.ts shows it while the API cannot be reached`,
  'sessions/page.tsx': 'sessions:read-any',
  'sessions/[id]/page.tsx': 'messages:read-any',
  'search/page.tsx': 'messages:read-any',
  'keys/page.tsx': 'api-keys:read',
  'audit/page.tsx': 'audit:read',
  'lab/page.tsx': 'lab:read',
  'lab/runs/[id]/page.tsx': 'lab:read',
  'suites/page.tsx': 'suites:read',
  'suites/[id]/page.tsx': 'suites:read',
  'suites/runs/[runId]/page.tsx': 'suites:read',
  'sandbox/page.tsx': 'sandbox:read',
  'usage/page.tsx': 'usage:read',
  'prices/page.tsx': 'usage:read',
  'console-sessions/page.tsx': 'console-sessions:read',
  'users/page.tsx': 'users:read',
  'users/[id]/page.tsx': 'users:read',
};

const appRoot = fileURLToPath(new URL('../../../app', import.meta.url));

function pageFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return pageFiles(path);
    return name === 'page.tsx' ? [relative(appRoot, path).split('\\').join('/')] : [];
  });
}

/** The page's check: the scope its default export asks for first thing, or what is wrong. */
export type PageScopeCheck = { ok: true; scope: string } | { ok: false; problem: string };

/**
 * Reads a page's source: its default-exported function must begin with
 * `const … = await requirePageScope('<literal>')` — first, so nothing is read before the check, and
 * unconditional, so no branch skips it.
 */
export function pageScopeCheckOf(fileName: string, source: string): PageScopeCheck {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const page = file.statements.find(
    (statement): statement is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(statement) &&
      (ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.ExportDefault) ===
        ts.ModifierFlags.ExportDefault,
  );
  if (page?.body === undefined) return { ok: false, problem: 'no default-exported page function' };
  const first = page.body.statements[0];
  const declaration =
    first !== undefined && ts.isVariableStatement(first) ? first.declarationList.declarations[0] : undefined;
  const awaited = declaration?.initializer;
  const call = awaited !== undefined && ts.isAwaitExpression(awaited) ? awaited.expression : undefined;
  if (
    call === undefined ||
    !ts.isCallExpression(call) ||
    !ts.isIdentifier(call.expression) ||
    call.expression.text !== 'requirePageScope'
  )
    return { ok: false, problem: 'does not begin with `await requirePageScope(…)`' };
  const [scope] = call.arguments;
  if (call.arguments.length !== 1 || scope === undefined || !ts.isStringLiteral(scope))
    return { ok: false, problem: 'names its scope other than as one string literal' };
  return { ok: true, scope: scope.text };
}

const checks = new Map(
  pageFiles(appRoot).map((page) => [page, pageScopeCheckOf(page, readFileSync(join(appRoot, page), 'utf8'))]),
);

describe('every page checks its read scope', () => {
  it('has a decision for every page, and no decision for a page that is gone', () => {
    expect([...checks.keys()].sort()).toEqual(Object.keys(decisions).sort());
  });

  it('begins every page that reads data with its scope check, naming the decided scope', () => {
    const wrong = [...checks].flatMap(([page, check]) => {
      const decided = decisions[page];
      if (decided === undefined || decided.startsWith(readsNoData)) return [];
      if (!check.ok) return [`${page}: ${check.problem}`];
      return check.scope === decided ? [] : [`${page}: checks ${check.scope}, decided ${decided}`];
    });
    expect(wrong).toEqual([]);
  });

  it('decides only scopes that exist', () => {
    for (const decided of Object.values(decisions))
      if (!decided.startsWith(readsNoData)) expect(scopes).toContain(decided);
  });

  it('checks the scope the navigation shows each page for', () => {
    const admin = userPrincipal({ id: 'admin', role: 'admin' });
    for (const item of navigationFor(admin))
      expect(decisions[`${item.href.slice(1)}/page.tsx`], item.href).toBe(item.scope);
  });

  it('refuses a page that reads before it checks, checks conditionally or names no literal scope (probes)', () => {
    const probe = (body: string) =>
      pageScopeCheckOf('probe.tsx', `export default async function Probe() {\n${body}\n}`);
    expect(probe(`const access = await requirePageScope('audit:read');\nreturn null;`)).toEqual({
      ok: true,
      scope: 'audit:read',
    });
    expect(probe(`const signedIn = await requireSignIn();\nreturn null;`).ok).toBe(false);
    expect(probe(`const data = await read();\nconst access = await requirePageScope('audit:read');`).ok).toBe(
      false,
    );
    expect(probe(`if (flag) { const access = await requirePageScope('audit:read'); }`).ok).toBe(false);
    expect(probe(`const access = await requirePageScope(scopeOfThisPage);`).ok).toBe(false);
    expect(pageScopeCheckOf('probe.tsx', `export function NotDefault() {}`).ok).toBe(false);
  });
});
