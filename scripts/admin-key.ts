/**
 * `npm run admin-key [-- --revoke-others]`: issues a new admin API key from the host, printed once
 * (the key alone on stdout, so `KEY=$(npm run --silent admin-key)` works; notes on stderr).
 * Access to the database is the trust boundary: no server or existing key is needed.
 */
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

// Loaded the way scripts/start.ts loads the API: through the API project's own tsconfig.
const { runAdminKeyCommand } = (await tsImport('../apps/api/src/admin-key/admin-key-command.ts', {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL('../apps/api/tsconfig.json', import.meta.url)),
})) as {
  runAdminKeyCommand: (
    argv: readonly string[],
    environment: Readonly<Record<string, string | undefined>>,
    output: { key(line: string): void; note(line: string): void },
  ) => Promise<number>;
};

process.exitCode = await runAdminKeyCommand(process.argv.slice(2), process.env, {
  key: (line) => console.log(line),
  note: (line) => console.error(line),
});
