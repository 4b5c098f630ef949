import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { defaultApiKeySort, type ApiKeySortField, type ListSort } from '@agentdesk/api-contract';
import type { ApiKeysTable, Database } from '../database-schema';
import { newId } from '../ids';
import { toApiKey, type ApiKey } from '../models/api-key';
import { type Page, type PageRequest } from '../pagination';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  notFound,
  StorageError,
  StorageErrorCode,
} from '../storage-error';
import { numberColumnSort, sortedPage, textColumnSort, type SortKey } from '../sorted-page';
import type { RepositoryContext } from './repository-context';

/** Fields every new key has. Hashing and formatting the secret is the auth layer's job. */
interface NewApiKeyBase {
  /** Pass an id (from `newId()`) when the key string embeds it; one is generated otherwise. */
  readonly id?: string;
  readonly prefix: string;
  /** SHA-256 of the secret, as the auth layer encodes it (e.g. lowercase hex). */
  readonly secretHash: string;
  readonly label: string;
}

/** A key to store: a portal key, or a key held by one user. */
export type NewApiKey =
  | (NewApiKeyBase & {
      readonly role: 'portal';
      readonly portalId: string;
      readonly trustClientUserId?: boolean;
    })
  | (NewApiKeyBase & {
      readonly role: 'user' | 'viewer' | 'qa' | 'admin';
      readonly ownerUserId: string;
      readonly portalId?: string | null;
    });

/** Filters of the key list. */
export interface ApiKeyListFilter {
  /** Include revoked keys (default false). */
  readonly includeRevoked?: boolean;
  /** Only the keys this user holds (a user's page lists their keys). */
  readonly ownerUserId?: string;
}

/** Default spacing of `last_used_at` writes: one write per key per minute, not one per request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** API keys, stored by the SHA-256 of their secret. */
export class ApiKeysRepository {
  constructor(private readonly context: RepositoryContext) {}

  /** Stores a key; `Conflict` on a duplicate id or hash, `NotFound` (user) for an unknown owner. */
  async create(input: NewApiKey): Promise<ApiKey> {
    return insertApiKey(this.context.db, input, this.context.clock());
  }

  /**
   * Stores the key only when no key exists at all (revoked ones count); `undefined` when one does.
   * Replicas starting together on a new database all try: exactly one stores its key. On
   * PostgreSQL a transaction-scoped advisory lock orders the check and the insert of concurrent
   * callers (READ COMMITTED alone would let each see an empty table); SQLite has one writer at a time.
   */
  async createFirst(input: NewApiKey): Promise<ApiKey | undefined> {
    return this.context.db.transaction().execute(async (transaction) => {
      if (this.context.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtext(${FIRST_KEY_LOCK}))`.execute(transaction);
      const any = await transaction.selectFrom('api_keys').select('id').limit(1).executeTakeFirst();
      if (any !== undefined) return undefined;
      return insertApiKey(transaction, input, this.context.clock());
    });
  }

  /**
   * The unrevoked key with this secret hash. Revocation is in the WHERE clause, so a revoked key
   * stops working on the very next request. The caller should still compare the hash it
   * computed with `secretHash` in constant time.
   */
  async findActiveBySecretHash(secretHash: string): Promise<ApiKey | undefined> {
    const row = await this.context.db
      .selectFrom('api_keys')
      .selectAll()
      .where('secret_hash', '=', secretHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? undefined : toApiKey(row);
  }

  /** A key by id, revoked or not; `NotFound` when missing. */
  async getById(apiKeyId: string): Promise<ApiKey> {
    const row = await this.context.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', apiKeyId)
      .executeTakeFirst();
    if (row === undefined) throw notFound('api-key');
    return toApiKey(row);
  }

  /** Keys, newest first unless another sort is asked (admin only). */
  async list(
    filter: ApiKeyListFilter = {},
    page: PageRequest = {},
    sort: ListSort<ApiKeySortField> = defaultApiKeySort,
  ): Promise<Page<ApiKey>> {
    let query = this.context.db.selectFrom('api_keys').selectAll();
    if (filter.includeRevoked !== true) query = query.where('revoked_at', 'is', null);
    if (filter.ownerUserId !== undefined) query = query.where('owner_user_id', '=', filter.ownerUserId);
    return sortedPage(query, this.sortKey(sort.field), sort.direction, page, toApiKey);
  }

  private sortKey(field: ApiKeySortField): SortKey<Selectable<ApiKeysTable>> {
    switch (field) {
      case 'created':
        return numberColumnSort(field, 'created_at');
      case 'lastUsed':
        return numberColumnSort(field, 'last_used_at', { nullable: true });
      case 'label':
        return textColumnSort(this.context.dialect, field, 'label');
    }
  }

  /** Revokes a key (idempotent: the first revocation time is kept); `NotFound` when missing. */
  async revoke(apiKeyId: string): Promise<ApiKey> {
    const row = await this.context.db
      .updateTable('api_keys')
      .set({ revoked_at: this.context.clock() })
      .where('id', '=', apiKeyId)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? this.getById(apiKeyId) : toApiKey(row);
  }

  /** Records a use, at most once per `minimumIntervalMs` per key so hot keys do not write on every request. */
  async recordUse(apiKeyId: string, minimumIntervalMs: number = LAST_USED_WRITE_INTERVAL_MS): Promise<void> {
    const now = this.context.clock();
    await this.context.db
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', apiKeyId)
      .where((eb) =>
        eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - minimumIntervalMs)]),
      )
      .execute();
  }
}

/** The advisory lock `createFirst` takes on PostgreSQL (hashed to its 32-bit key by the server). */
const FIRST_KEY_LOCK = 'agentdesk:first-api-key';

async function insertApiKey(
  db: Kysely<Database> | Transaction<Database>,
  input: NewApiKey,
  now: number,
): Promise<ApiKey> {
  const holder =
    input.role === 'portal'
      ? {
          owner_user_id: null,
          portal_id: input.portalId,
          trust_client_user_id: input.trustClientUserId === true ? (1 as const) : (0 as const),
        }
      : {
          owner_user_id: input.ownerUserId,
          portal_id: input.portalId ?? null,
          trust_client_user_id: 0 as const,
        };
  try {
    const row = await db
      .insertInto('api_keys')
      .values({
        id: input.id ?? newId(now),
        prefix: input.prefix,
        secret_hash: input.secretHash,
        role: input.role,
        ...holder,
        label: input.label,
        created_at: now,
        revoked_at: null,
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toApiKey(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new StorageError(StorageErrorCode.Conflict, 'api-key', 'This API key already exists', {
        cause: error,
      });
    if (isForeignKeyViolation(error)) throw notFound('user');
    throw error;
  }
}
