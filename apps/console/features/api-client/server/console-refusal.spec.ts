import { ApiErrorCode, errorBodySchema } from '@agentdesk/api-contract';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { consoleRefusal, consoleRefusalCodes, type ConsoleRefusalReason } from './console-refusal';

async function bodyOf(response: Response) {
  return errorBodySchema.parse(await response.json());
}

describe('the console’s own refusals, in the API’s vocabulary', () => {
  it('answers each reason with one API code and that code’s status', () => {
    expect(consoleRefusalCodes).toEqual({
      'cross-site': { status: 403, code: ApiErrorCode.Forbidden },
      'signed-out': { status: 401, code: ApiErrorCode.Unauthenticated },
      'role-may-not': { status: 403, code: ApiErrorCode.Forbidden },
      'invalid-input': { status: 400, code: ApiErrorCode.ValidationFailed },
      'not-found': { status: 404, code: ApiErrorCode.NotFound },
      'api-unreachable': { status: 502, code: ApiErrorCode.UpstreamFailed },
    } satisfies Record<ConsoleRefusalReason, unknown>);
  });

  it('words a cross-site request and a missing sign-in the same on every route', async () => {
    const crossSite = consoleRefusal('cross-site');
    expect(crossSite.status).toBe(403);
    expect(await bodyOf(crossSite)).toEqual({
      error: { code: 'FORBIDDEN', message: 'Cross-site request refused', requestId: null },
    });
    const signedOut = consoleRefusal('signed-out');
    expect(signedOut.status).toBe(401);
    expect((await bodyOf(signedOut)).error.code).toBe('UNAUTHENTICATED');
  });

  it('answers in the API’s error body, stored nowhere', async () => {
    const refusal = consoleRefusal('invalid-input', 'offset: must be a whole number');
    expect(refusal.headers.get('cache-control')).toBe('no-store');
    expect(await bodyOf(refusal)).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'offset: must be a whole number', requestId: null },
    });
  });
});

// The vocabulary stays in one place: no other source of the console spells an error code (the API's
// or an invented one like `CROSS_SITE`) — it names a reason and `consoleRefusal` picks the code.
const consoleRoot = fileURLToPath(new URL('../../..', import.meta.url));
const vocabularyFile = 'features/api-client/server/console-refusal.ts';

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'e2e' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(spec|d)\.tsx?$/.test(name) ? [path] : [];
  });
}

const apiCodes = new Set<string>(Object.values(ApiErrorCode));

/**
 * The error codes a source spells: a literal the API uses as a code, an upper-case literal given as
 * a `code` property (an invented one, like `CROSS_SITE`), or a member of `ApiErrorCode`.
 */
export function errorCodesSpelledIn(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node)) {
      const parent = node.parent;
      // Codes are SCREAMING_SNAKE_CASE; a stored turn error's `code: 'unknown'` is another vocabulary.
      const isCodeProperty =
        ts.isPropertyAssignment(parent) &&
        parent.initializer === node &&
        parent.name.getText(file) === 'code' &&
        /^[A-Z]+(_[A-Z]+)*$/.test(node.text);
      if (apiCodes.has(node.text) || isCodeProperty) found.push(node.text);
    } else if (ts.isPropertyAccessExpression(node) && node.expression.getText(file) === 'ApiErrorCode') {
      found.push(`ApiErrorCode.${node.name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('one place for the console’s error codes', () => {
  it('no source but the vocabulary spells a code', () => {
    const spelled = sourceFiles(consoleRoot)
      .map((path) => relative(consoleRoot, path))
      .filter((path) => path !== vocabularyFile)
      .flatMap((path) =>
        errorCodesSpelledIn(path, readFileSync(join(consoleRoot, path), 'utf8')).map(
          (code) => `${path}: ${code}`,
        ),
      );
    expect(spelled).toEqual([]);
  });

  it('the check sees a code spelled by hand or taken from the enum (probe)', () => {
    const probe = `
      Response.json({ error: { code: 'API_UNAVAILABLE', message: 'x' } }, { status: 502 });
      failure(401, 'UNAUTHENTICATED', 'Sign in again');
      consoleRefusalOf(ApiErrorCode.Forbidden);
      const fine = ['Cross-site request refused', 'AGENTDESK_API_URL'];`;
    expect(errorCodesSpelledIn('probe.ts', probe)).toEqual([
      'API_UNAVAILABLE',
      'UNAUTHENTICATED',
      'ApiErrorCode.Forbidden',
    ]);
  });
});
