/**
 * Serializes image builds across processes. The API implements it with a PostgreSQL advisory lock
 * (`pg_advisory_lock(hashtext(key))` on one connection held for `run`), so replicas sharing an
 * engine build once; in one process the single-flight in SandboxImage already coalesces callers.
 */
export interface BuildLock {
  withLock<T>(key: string, run: () => Promise<T>): Promise<T>;
}

/** No cross-process coordination: for one process, SQLite deployments and tests. */
export const inProcessBuildLock: BuildLock = {
  withLock: (_key, run) => run(),
};
