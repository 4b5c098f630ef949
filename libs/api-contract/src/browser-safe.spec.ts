import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The console bundles this library for the browser: its runtime code may import zod, the browser-safe
// authz table and its own files — never Node, a server library or another package.
const allowedPackages = new Set(['zod', '@agentdesk/authz']);
const sourceDirectory = dirname(fileURLToPath(import.meta.url));
const runtimeFiles = readdirSync(sourceDirectory, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'),
);

describe('browser safety', () => {
  it.each(runtimeFiles)('%s imports only zod, authz and relative modules', (file) => {
    const source = readFileSync(join(sourceDirectory, file), 'utf8');
    const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
      (match) => match[1] ?? '',
    );
    const foreign = specifiers.filter(
      (specifier) => !specifier.startsWith('./') && !allowedPackages.has(specifier),
    );
    expect(foreign).toEqual([]);
    expect(source).not.toMatch(/\b(process|Buffer|require)\b/);
  });
});
