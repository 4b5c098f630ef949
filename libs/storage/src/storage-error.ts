/** Why a storage operation refused; the API maps each code to one HTTP answer. */
export enum StorageErrorCode {
  /** Missing — or owned by someone else: the two are deliberately indistinguishable. */
  NotFound = 'STORAGE_NOT_FOUND',
  /** A uniqueness rule would be broken (e.g. a second user with the same external id). */
  Conflict = 'STORAGE_CONFLICT',
  /** The session is closed and takes no new messages. */
  SessionClosed = 'STORAGE_SESSION_CLOSED',
  /** The message already finished; it cannot finish twice. */
  MessageNotPending = 'STORAGE_MESSAGE_NOT_PENDING',
  /** A pagination cursor that this storage did not produce. */
  InvalidCursor = 'STORAGE_INVALID_CURSOR',
  /** Another agent turn is running on this session. */
  TurnInProgress = 'STORAGE_TURN_IN_PROGRESS',
  /** An idempotency key already used by a different request (another body, session or mode). */
  IdempotencyKeyReused = 'STORAGE_IDEMPOTENCY_KEY_REUSED',
}

/** What kind of record an error is about. */
export type StorageEntity =
  | 'user'
  | 'api-key'
  | 'session'
  | 'message'
  | 'tool-result'
  | 'audit-entry'
  | 'cursor'
  | 'structured-output-run'
  | 'sandbox-build'
  | 'console-session'
  | 'model-price'
  | 'qa-suite'
  /** A suite version: also the entity of a save from a stale base version (a conflict). */
  | 'qa-suite-version'
  | 'qa-run'
  | 'qa-run-cell';

/** The one error type of the storage layer. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: StorageErrorCode;
  readonly entity: StorageEntity;

  constructor(code: StorageErrorCode, entity: StorageEntity, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.entity = entity;
  }
}

/** Narrows an unknown thrown value to a `StorageError`. */
export function isStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError;
}

/** The not-found error; also what a foreign id yields, so callers cannot probe for existence. */
export function notFound(entity: StorageEntity): StorageError {
  return new StorageError(StorageErrorCode.NotFound, entity, `${entity} not found`);
}

/**
 * True when the driver reports a unique-constraint violation (PostgreSQL SQLSTATE 23505;
 * better-sqlite3 `SQLITE_CONSTRAINT_UNIQUE` / `_PRIMARYKEY`).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverErrorCode(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when PostgreSQL refused a null in a NOT NULL column (23502). */
export function isNotNullViolation(error: unknown): boolean {
  return driverErrorCode(error) === '23502';
}

/** True when the driver reports a foreign-key violation (23503 / `SQLITE_CONSTRAINT_FOREIGNKEY`). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = driverErrorCode(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

function driverErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
