/**
 * Starts the API: `npx tsx apps/api/src/main.ts` (or `npm start`). Configuration comes from the
 * environment (see `config/app-config.ts`); the default database is a SQLite file under `data/`.
 */
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './create-app';

export { createApp, type AgentDeskApi, type CreateAppOptions } from './create-app';
export { loadConfig, type AppConfig } from './config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  const api = await createApp(config);
  const url = await api.listen();
  const shutdown = (signal: string): void => {
    api.logger.info({ signal }, 'shutting down');
    api.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  console.log(`AgentDesk API listening on ${url}  (docs: ${url}/docs, OpenAPI: ${url}/openapi.json)`);
  if (api.bootstrap.generatedAdminKey !== undefined) {
    console.log(
      [
        '',
        '================================================================================',
        ' First start: an admin API key was created. It is shown this once and never again:',
        '',
        `   ${api.bootstrap.generatedAdminKey}`,
        '',
        ' Send it as "Authorization: Bearer <key>" or "X-API-Key: <key>". Keep it secret.',
        '================================================================================',
        '',
      ].join('\n'),
    );
  }
  if (config.auth.devMode) {
    console.error(
      [
        '',
        '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
        ` DEV MODE: requests WITHOUT an API key act as the anonymous local user.`,
        ` Bound to ${config.http.host} only. Never use AGENTDESK_DEV_MODE on a shared machine.`,
        '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
        '',
      ].join('\n'),
    );
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
