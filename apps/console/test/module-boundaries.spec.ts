import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The console is `scope:browser`: the workspace's lint must refuse any import of server code into
// it, and accept the browser-safe libraries. Linted as a file inside the console, with the real config.
const workspaceRoot = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: workspaceRoot });

async function boundaryErrors(source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, {
    filePath: `${workspaceRoot}apps/console/features/boundary-probe/probe.ts`,
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === '@nx/enforce-module-boundaries')
    .map((message) => message.message);
}

describe('the console’s module boundaries', () => {
  it.each(['@agentdesk/storage', '@agentdesk/providers', '@agentdesk/sandbox', '@agentdesk/compressor'])(
    'refuse an import of %s (server code)',
    async (library) => {
      const errors = await boundaryErrors(
        `import * as server from '${library}';\nexport const probe = server;\n`,
      );
      expect(errors.join('\n')).toMatch(/scope:browser/);
    },
  );

  it.each(['@agentdesk/api-contract', '@agentdesk/authz'])(
    'accept an import of %s (browser-safe)',
    async (library) => {
      expect(
        await boundaryErrors(`import * as shared from '${library}';\nexport const probe = shared;\n`),
      ).toEqual([]);
    },
  );
});
