/**
 * The entry of the compiled API (`npx nx build api` → dist/apps/api/main.js, run with plain
 * `node dist/apps/api/main.js`). `main.ts` is the entry for tsx: it loads these same sources with
 * this project's tsconfig; here esbuild has already applied it at build time.
 */
import { startApi } from './start-api';

startApi().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
