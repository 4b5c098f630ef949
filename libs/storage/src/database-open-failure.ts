import { driverErrorCauses } from './driver-error-causes';
import { parseDatabaseUrl } from './open-database';
import { explainPostgresOpenFailure } from './postgres-open-failure';
import { explainSqliteOpenFailure } from './sqlite-open-failure';

/**
 * Turns a failure to open or migrate the database at start into one line an operator can act on
 * ("database "x" does not exist on host:port — create it with: createdb …", "no server on …",
 * "the SQLite path is a folder"); `undefined` when the failure is not about reaching the database
 * (then it is a bug, and its stack trace is worth printing). Never includes the URL's password.
 */
export function explainDatabaseOpenFailure(error: unknown, url: string): string | undefined {
  let target;
  try {
    target = parseDatabaseUrl(url);
  } catch {
    return undefined;
  }
  const causes = driverErrorCauses(error);
  return target.dialect === 'postgres'
    ? explainPostgresOpenFailure(causes, target.connectionString)
    : explainSqliteOpenFailure(causes, target.filename);
}
