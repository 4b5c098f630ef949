import { afterEach, beforeEach, expect } from 'vitest';
import type { User } from '../models/user';
import { StorageError, type StorageEntity, type StorageErrorCode } from '../storage-error';
import type { TestDatabase, TestDatabaseFactory } from './test-database';

/** Gives each test a fresh database from the factory and cleans it up afterwards. */
export function useTestDatabase(factory: TestDatabaseFactory): () => TestDatabase {
  let current: TestDatabase | undefined;
  beforeEach(async () => {
    current = await factory();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('The test database is only available inside a test');
    return current;
  };
}

/** Awaits a rejection and checks it is a `StorageError` with this code (and entity). */
export async function expectStorageError(
  promise: Promise<unknown>,
  code: StorageErrorCode,
  entity?: StorageEntity,
): Promise<StorageError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(StorageError);
  const storageError = error as StorageError;
  expect(storageError.code).toBe(code);
  if (entity !== undefined) expect(storageError.entity).toBe(entity);
  return storageError;
}

/** Creates a non-portal user named `name`. */
export function createUser(database: TestDatabase, name: string): Promise<User> {
  return database.repositories.users.create({ externalId: name, displayName: name });
}

/** An id in the right format that names nothing. */
export const missingId = '00000000-0000-7000-8000-000000000000';
