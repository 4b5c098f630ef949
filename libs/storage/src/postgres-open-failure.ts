import type { DriverErrorFields } from './driver-error-causes';

/** Where a PostgreSQL URL points, without its password. */
interface PostgresLocation {
  readonly host: string;
  readonly port: string;
  readonly user: string | undefined;
  readonly database: string | undefined;
}

/**
 * One line for an operator about a PostgreSQL server or database that is not there (missing
 * database, no server, unknown host, refused login); `undefined` for any other failure.
 * Built from the URL's host, port, user and database only, so the password never appears.
 */
export function explainPostgresOpenFailure(
  causes: readonly DriverErrorFields[],
  connectionString: string,
): string | undefined {
  const location = postgresLocation(connectionString);
  const where = `${location.host.includes(':') ? `[${location.host}]` : location.host}:${location.port}`;
  const database = location.database ?? location.user ?? 'the default database';
  for (const cause of causes) {
    switch (cause.code) {
      case '3D000':
        return `PostgreSQL database "${database}" does not exist on ${where} — create it with: ${createdbCommand(location)}`;
      case 'ECONNREFUSED':
        return `No PostgreSQL server is accepting connections on ${where} (connection refused) — start PostgreSQL there, or point DATABASE_URL at a running server (postgres://user@host:port/database)`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `The PostgreSQL host "${location.host}" was not found (DNS lookup failed) — check the host in DATABASE_URL`;
      case 'ETIMEDOUT':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `The PostgreSQL server on ${where} cannot be reached (${cause.code}) — check that it runs and that this machine may connect to it`;
      case '28P01':
      case '28000':
        // The server's own words (e.g. `role "x" does not exist`) never contain the password.
        return `PostgreSQL on ${where} refused the login of user "${location.user ?? 'the default user'}": ${cause.message} — check the user and password in DATABASE_URL`;
      case '42501':
        return `PostgreSQL user "${location.user ?? 'the default user'}" lacks a privilege in database "${database}" on ${where}: ${cause.message} — use the database's owner, or grant it CREATE on the database and its schema`;
      case '53300':
      case '57P03':
        return `PostgreSQL on ${where} refused the connection: ${cause.message} — retry when it accepts connections`;
    }
    if (cause.message.startsWith('SASL:'))
      return `PostgreSQL on ${where} asks user "${location.user ?? 'the default user'}" for a password and DATABASE_URL gives none — add it: postgres://user:password@host:port/database`;
  }
  if (causes.some((cause) => /Connection terminated|timeout expired/i.test(cause.message)))
    return `The server on ${where} closed the connection before PostgreSQL answered (not PostgreSQL, or it requires SSL: add ?sslmode=…) — check DATABASE_URL`;
  return undefined;
}

function postgresLocation(connectionString: string): PostgresLocation {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { host: 'localhost', port: '5432', user: undefined, database: undefined };
  }
  const decode = (value: string): string | undefined => {
    if (value.length === 0) return undefined;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  const host = decode(url.hostname.replace(/^\[|\]$/g, '')) ?? url.searchParams.get('host') ?? 'localhost';
  return {
    host,
    port: url.port.length > 0 ? url.port : '5432',
    user: decode(url.username),
    database: decode(url.pathname.replace(/^\//, '')),
  };
}

function createdbCommand(location: PostgresLocation): string {
  const parts = ['createdb', '-h', location.host, '-p', location.port];
  if (location.user !== undefined) parts.push('-U', location.user);
  parts.push(location.database ?? location.user ?? 'agentdesk');
  return parts.map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
