import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { RouteCallKind } from './route-caller';

/*
 * Every route handler in one style, as data: each `route.ts` under `app/` exports a handler of a
 * feature that starts with `routeCaller(request, kind)` (or, for signing in and out, the
 * `crossSiteRefusal` alone), so CSRF, sign-in and their refusals are decided in one place. The table
 * is the decision per route; a new route fails here until it has one.
 */

type Decision = RouteCallKind | `same-origin only: ${string}` | `public: ${string}`;

const decisions: Readonly<Record<string, Decision>> = {
  'auth/sign-in/route.ts': 'same-origin only: signing in needs no sign-in',
  'auth/sign-out/route.ts': 'same-origin only: signing out works signed out too',
  'auth/sso/start/route.ts': 'public: a link on the sign-in page, changing nothing but a mark cookie',
  'sign-in/sso/route.ts': 'public: the API sends the browser back here; the pending mark stops login CSRF',
  'console-sessions/end/route.ts': 'form-post',
  'exports/[list]/route.ts': 'read',
  'console-sessions/end-all/route.ts': 'form-post',
  'keys/create/route.ts': 'mutation',
  'keys/revoke/route.ts': 'form-post',
  'lab/runs/route.ts': 'mutation',
  'lab/schema-check/route.ts': 'mutation',
  'sandbox/builds/[id]/events/route.ts': 'read',
  'sandbox/containers/[id]/route.ts': 'mutation',
  'sandbox/rebuild/route.ts': 'mutation',
  'sandbox/repin/route.ts': 'mutation',
  'sessions/[id]/export/route.ts': 'read',
  'sessions/[id]/messages/route.ts': 'read',
  'sessions/[id]/tool-results/[toolCallId]/route.ts': 'read',
  'sessions/[id]/live/route.ts': 'read',
  'prices/add/route.ts': 'mutation',
  'suites/create/route.ts': 'mutation',
  'suites/import/route.ts': 'mutation',
  'suites/[id]/save/route.ts': 'mutation',
  'suites/[id]/import/route.ts': 'mutation',
  'suites/[id]/runs/route.ts': 'mutation',
  'suites/[id]/export/route.ts': 'read',
  'suites/[id]/cases-from-lab/route.ts': 'mutation',
  'suites/runs/[runId]/events/route.ts': 'read',
  'suites/runs/[runId]/cancel/route.ts': 'mutation',
  'users/suggest/route.ts': 'read',
};

const consoleRoot = fileURLToPath(new URL('../../..', import.meta.url));
const appRoot = join(consoleRoot, 'app');
const featuresRoot = join(consoleRoot, 'features');

function filesNamed(folder: string, accept: (name: string) => boolean): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesNamed(path, accept);
    return accept(name) ? [path] : [];
  });
}

const parse = (path: string) =>
  ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** Every function declared at the top of the features' server modules, by name. */
const serverFunctions = new Map<string, { declaration: ts.FunctionDeclaration; file: ts.SourceFile }>();
for (const path of filesNamed(featuresRoot, (name) => /\.ts$/.test(name) && !name.endsWith('.spec.ts')))
  if (path.split(/[\\/]/).includes('server')) {
    const file = parse(path);
    for (const statement of file.statements)
      if (ts.isFunctionDeclaration(statement) && statement.name !== undefined)
        serverFunctions.set(statement.name.text, { declaration: statement, file });
  }

/** The checks a function makes: `routeCaller` kinds and `crossSiteRefusal`, through local helpers too. */
function checksIn(
  declaration: ts.FunctionDeclaration,
  file: ts.SourceFile,
  seen = new Set<string>(),
): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      const [, kind] = node.arguments;
      if (name === 'routeCaller' && kind !== undefined && ts.isStringLiteral(kind)) found.push(kind.text);
      else if (name === 'crossSiteRefusal') found.push('same-origin only');
      else if (!seen.has(name)) {
        seen.add(name);
        const helper = file.statements.find(
          (statement): statement is ts.FunctionDeclaration =>
            ts.isFunctionDeclaration(statement) && statement.name?.text === name,
        );
        if (helper !== undefined) found.push(...checksIn(helper, file, seen));
      }
    }
    ts.forEachChild(node, visit);
  };
  if (declaration.body !== undefined) visit(declaration.body);
  return found;
}

/** The feature handler a route file hands its request to: the one name it imports. */
function handlerOf(route: ts.SourceFile): string | undefined {
  const names = route.statements.flatMap((statement) => {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    return bindings !== undefined && ts.isNamedImports(bindings)
      ? bindings.elements.map((e) => e.name.text)
      : [];
  });
  return names.length === 1 ? names[0] : undefined;
}

const routes = filesNamed(appRoot, (name) => name === 'route.ts').map((path) =>
  relative(appRoot, path).split('\\').join('/'),
);

describe('every route handler in one style', () => {
  it('has a decision for every route, and none for a route that is gone', () => {
    expect([...routes].sort()).toEqual(Object.keys(decisions).sort());
  });

  it('starts each handler with the decided check', () => {
    const wrong = routes.flatMap((route) => {
      const decided = decisions[route];
      if (decided === undefined || decided.startsWith('public:')) return [];
      const name = handlerOf(parse(join(appRoot, route)));
      const handler = name === undefined ? undefined : serverFunctions.get(name);
      if (handler === undefined) return [`${route}: its handler is not a feature's server function`];
      const expected = decided.startsWith('same-origin only') ? 'same-origin only' : decided;
      const checks = checksIn(handler.declaration, handler.file);
      return checks.length === 1 && checks[0] === expected
        ? []
        : [`${route}: ${checks.join(', ') || 'no check'}`];
    });
    expect(wrong).toEqual([]);
  });

  it('never lets a route that changes something pass as a read', () => {
    for (const route of routes) {
      const exported = parse(join(appRoot, route)).statements.flatMap((statement) => {
        if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) return [statement.name.text];
        if (ts.isVariableStatement(statement))
          return statement.declarationList.declarations.map((declaration) => declaration.name.getText());
        return [];
      });
      if (exported.some((method) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)))
        expect(decisions[route], route).not.toBe('read');
    }
  });

  it('sees a check made through a local helper, and misses none that is absent (probes)', () => {
    const checksOf = (source: string) => {
      const file = ts.createSourceFile('probe.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const handler = file.statements.find(
        (statement): statement is ts.FunctionDeclaration =>
          ts.isFunctionDeclaration(statement) && statement.name?.text === 'handle',
      );
      return handler === undefined ? [] : checksIn(handler, file);
    };
    const helper = `async function formAction(request) { const caller = await routeCaller(request, 'form-post'); }`;
    expect(checksOf(`${helper}\nfunction handle(request) { return formAction(request); }`)).toEqual([
      'form-post',
    ]);
    expect(checksOf(`function handle(request) { return relayToApi(credential, call, schema); }`)).toEqual([]);
    expect(
      checksOf(`function handle(request) { if (!isSameOriginRequest(request.headers)) return x; }`),
    ).toEqual([]);
  });
});
