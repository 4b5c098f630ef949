/** The two engines the storage layer runs on. */
export type DatabaseDialect = 'sqlite' | 'postgres';
