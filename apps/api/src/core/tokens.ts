/*
 * Injection tokens. The API runs under tsx and vitest (esbuild), which emit no decorator metadata,
 * so Nest cannot read constructor parameter types: every constructor dependency is injected with
 * an explicit `@Inject(TOKEN_OR_CLASS)`, never through `design:paramtypes`.
 */

/** The validated `AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');
/** The open `AppDatabase`. */
export const APP_DATABASE = Symbol('APP_DATABASE');
/** The `Repositories` over that database. */
export const REPOSITORIES = Symbol('REPOSITORIES');
/** The process pino `Logger`. */
export const LOGGER = Symbol('LOGGER');
/** The `AccessContext`: the dev-mode user of this app instance. */
export const ACCESS_CONTEXT = Symbol('ACCESS_CONTEXT');
