import { explainDatabaseOpenFailure } from '@agentdesk/storage';
import { issueFirstAdminKeyAtStart } from './startup/first-admin-key';
import { RedisUnavailableError } from './cluster/redis-connection';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';
import { createApp, type AgentDeskApi } from './create-app';
import { explainListenFailure } from './startup/listen-failure';

/** What a started API tells its launcher (e.g. `npm start`, to print a usage example). */
export interface StartedApi {
  readonly url: string;
  /** Only on the first start against a database; never retrievable afterwards. */
  readonly generatedAdminKey: string | undefined;
}

/** Exit codes of a start that cannot succeed until the operator changes something. */
const EXIT_INVALID_CONFIGURATION = 2;
const EXIT_ENVIRONMENT_NOT_READY = 1;

/**
 * Reads the configuration from the environment, migrates, listens, and prints the URL and — first
 * start only — a new admin key, created only once the server listens. Problems the operator must
 * fix (invalid configuration, a missing database, a port in use) end the process with one line
 * on stderr, no stack trace.
 */
export async function startApi(): Promise<StartedApi> {
  const config = loadConfigOrExit();
  const api = await createAppOrExit(config);
  const url = await listenOrExit(api);
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
  const generatedAdminKey =
    api.bootstrap.adminKeySource === 'none'
      ? await issueFirstAdminKeyAtStart(api.repositories, api.logger)
      : undefined;
  if (generatedAdminKey !== undefined) {
    console.log(
      [
        '',
        '================================================================================',
        ' First start: an admin API key was created. It is shown this once and never again:',
        '',
        `   ${generatedAdminKey}`,
        '',
        ' Send it as "Authorization: Bearer <key>" or "X-API-Key: <key>". Keep it secret.',
        ' Lost it? Issue another from this machine: npm run admin-key',
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
  return { url, generatedAdminKey };
}

function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) exitWith(error.message, EXIT_INVALID_CONFIGURATION);
    throw error;
  }
}

async function createAppOrExit(config: AppConfig): Promise<AgentDeskApi> {
  try {
    return await createApp(config);
  } catch (error) {
    // A revoked AGENTDESK_ADMIN_KEY is a configuration problem too.
    if (error instanceof ConfigError) exitWith(error.message, EXIT_INVALID_CONFIGURATION);
    const databaseProblem = explainDatabaseOpenFailure(error, config.database.url.reveal());
    if (databaseProblem !== undefined) exitWith(databaseProblem, EXIT_ENVIRONMENT_NOT_READY);
    // AGENTDESK_REDIS_URL set but Redis silent: starting anyway would quietly split the rate limits
    // and miss revocations from other replicas, so the operator decides (start Redis or unset it).
    if (error instanceof RedisUnavailableError) exitWith(error.message, EXIT_ENVIRONMENT_NOT_READY);
    throw error;
  }
}

async function listenOrExit(api: AgentDeskApi): Promise<string> {
  try {
    return await api.listen();
  } catch (error) {
    const listenProblem = explainListenFailure(error, api.config.http);
    await api.close().catch(() => undefined);
    if (listenProblem !== undefined) exitWith(listenProblem, EXIT_ENVIRONMENT_NOT_READY);
    throw error;
  }
}

function exitWith(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}
