import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The console imports this library, so its runtime code must not import Node or any package.
const sourceDirectory = dirname(fileURLToPath(import.meta.url));
const runtimeFiles = readdirSync(sourceDirectory, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
);

describe('browser safety', () => {
  it.each(runtimeFiles)('%s imports only relative modules', (file) => {
    const source = readFileSync(join(sourceDirectory, file), 'utf8');
    const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
      (match) => match[1],
    );
    expect(
      specifiers.filter((specifier) => !specifier?.startsWith('./') && !specifier?.startsWith('../')),
    ).toEqual([]);
    expect(source).not.toMatch(/\b(process|Buffer|require)\b/);
  });
});
