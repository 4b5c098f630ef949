/**
 * Starts the API: `npx tsx apps/api/src/main.ts` (or `npm start`). Configuration comes from the
 * environment (see `config/app-config.ts`); the default database is a SQLite file under `data/`.
 *
 * This file has no decorators on purpose. Run from the workspace root, tsx applies the root
 * tsconfig, whose empty `include` leaves esbuild without `experimentalDecorators`; so the app is
 * loaded through tsx's loader with this project's tsconfig, wherever the command is run from.
 */
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const projectTsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
const { startApi } = (await tsImport('./start-api.ts', {
  parentURL: import.meta.url,
  tsconfig: projectTsconfig,
})) as {
  startApi: () => Promise<unknown>;
};

startApi().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
