import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './create-app';

/** What a started API tells its launcher (e.g. `npm start`, to print a usage example). */
export interface StartedApi {
  readonly url: string;
  /** Only on the first start against a database; never retrievable afterwards. */
  readonly generatedAdminKey: string | undefined;
}

/**
 * Reads the configuration from the environment (exits with the list of problems when invalid),
 * migrates, ensures an admin key, listens, and prints the URL and — first start only — the admin key.
 */
export async function startApi(): Promise<StartedApi> {
  let config;
  let api;
  try {
    config = loadConfig(process.env);
    api = await createApp(config);
  } catch (error) {
    // Configuration problems (including a revoked AGENTDESK_ADMIN_KEY) are the operator's to fix: no stack trace.
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
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
  return { url, generatedAdminKey: api.bootstrap.generatedAdminKey };
}
