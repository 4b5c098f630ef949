import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The first-load JS budget (200 KB gzipped per route, docs/benchmarks/console.md) holds only while
// the browser's code loads no schema library: the contract's zod schemas (~39 KB) and ajv (~38 KB)
// run on the server. This walks every `'use client'` module and everything it imports statically
// (a dynamic `import()` is its own chunk, loaded on demand) and refuses a value import of them.
const consoleRoot = fileURLToPath(new URL('..', import.meta.url));
const serverOnlyInBrowser = ['@agentdesk/api-contract', 'zod', 'ajv'];

interface StaticImport {
  module: string;
  typeOnly: boolean;
}

/** The modules a source imports or re-exports statically, and whether only types are taken. */
export function staticImportsOf(fileName: string, source: string): StaticImport[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const imports: StaticImport[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      imports.push({ module: statement.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      imports.push({ module: statement.moduleSpecifier.text, typeOnly });
    }
  }
  return imports;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) ? [path] : [];
  });
}

function isClientModule(source: string): boolean {
  return /^\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*['"]use client['"]/.test(source);
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
  );
}

/** Every module the browser bundles statically: the client modules and their static imports. */
function clientModuleGraph(): Map<string, StaticImport[]> {
  const pending = [join(consoleRoot, 'app'), join(consoleRoot, 'features')]
    .flatMap(sourceFiles)
    .filter((file) => isClientModule(readFileSync(file, 'utf8')));
  const graph = new Map<string, StaticImport[]>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (graph.has(file)) continue;
    const imports = staticImportsOf(file, readFileSync(file, 'utf8'));
    graph.set(file, imports);
    for (const { module, typeOnly } of imports) {
      if (typeOnly || !module.startsWith('.')) continue;
      const target = resolveRelative(file, module);
      if (target !== undefined) pending.push(target);
    }
  }
  return graph;
}

describe('the browser’s code', () => {
  it('tells type-only imports from value imports', () => {
    const imports = staticImportsOf(
      'probe.tsx',
      [
        "import type { RunJson } from '@agentdesk/api-contract';",
        "import { type PageJson, type MessageJson } from '@agentdesk/api-contract';",
        "import { runJsonSchema, type RunJson as Run } from '@agentdesk/api-contract';",
        "import { z } from 'zod';",
        "export { apiKeyRoles } from '@agentdesk/api-contract';",
        "export type { ApiKeyRole } from '@agentdesk/api-contract';",
        "import './side-effect';",
      ].join('\n'),
    );
    expect(imports.map(({ module, typeOnly }) => `${module}:${typeOnly ? 'type' : 'value'}`)).toEqual([
      '@agentdesk/api-contract:type',
      '@agentdesk/api-contract:type',
      '@agentdesk/api-contract:value',
      'zod:value',
      '@agentdesk/api-contract:value',
      '@agentdesk/api-contract:type',
      './side-effect:value',
    ]);
  });

  it('imports no schema library (zod, ajv, the contract’s schemas) statically: they run on the server', () => {
    const graph = clientModuleGraph();
    // The walk really reaches the client code (a transcript's hook sits two imports deep).
    expect([...graph.keys()].map((file) => relative(consoleRoot, file))).toEqual(
      expect.arrayContaining([
        'features/transcript/components/transcript-view.tsx',
        'features/transcript/hooks/use-transcript.ts',
        'features/lab/components/lab-run-form.tsx',
      ]),
    );
    const offending = [...graph].flatMap(([file, imports]) =>
      imports
        .filter(
          ({ module, typeOnly }) =>
            !typeOnly &&
            serverOnlyInBrowser.some((library) => module === library || module.startsWith(`${library}/`)),
        )
        .map(({ module }) => `${relative(consoleRoot, file)} imports ${module}`),
    );
    expect(offending).toEqual([]);
  });
});
