import type { Role } from '@agentdesk/authz';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../database-schema';
import { toUser, type User } from '../models/user';
import { newestFirstPage } from '../newest-first-page';
import type { Page, PageRequest } from '../pagination';
import type { ExportChunks } from '../sorted-page';
import { exportPeople } from './people-export';
import { searchPeople, whereUserMatches } from './people-search';
import type { RepositoryContext } from './repository-context';

/** Filters of the people directory. */
export interface PeopleFilter {
  /** Case-insensitive prefix of the name, the email (single sign-on) or the external id (ordered by it). */
  readonly prefix?: string;
  readonly portalId?: string;
  /** People holding this role: an unrevoked key of it, or single sign-on mapped to it. */
  readonly role?: Role;
}

/** Usage of one person over a range of UTC days (from `usage_daily_totals`). */
export interface PersonUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly thinkingTokens: number;
  readonly cachedTokens: number;
  readonly modelCalls: number;
  /** Micro-dollars of the priced calls. */
  readonly costMicros: number;
  readonly unpricedCalls: number;
}

/** One row of the directory: the user with what the page shows about them. */
export interface Person {
  readonly user: User;
  /** The email their identity provider last gave (single sign-on users only). */
  readonly email: string | null;
  /** Their most powerful role (unrevoked keys, single sign-on); null for portal end users and people without one. */
  readonly role: Role | null;
  readonly sessionCount: number;
  /** Their sessions' latest change (a turn, a rename); null without sessions. */
  readonly lastActiveAt: Date | null;
  readonly usage: PersonUsage;
}

/** A range of UTC days, both included, `YYYY-MM-DD`. */
export interface DayRange {
  readonly fromDay: string;
  readonly toDay: string;
}

/** Most powerful first: the role a person is shown with. */
const roleRank: readonly Role[] = ['admin', 'qa', 'viewer', 'portal', 'user'];

const noUsage: PersonUsage = {
  inputTokens: 0,
  outputTokens: 0,
  thinkingTokens: 0,
  cachedTokens: 0,
  modelCalls: 0,
  costMicros: 0,
  unpricedCalls: 0,
};

/**
 * The people directory. Reads for admins and viewers (the routes audit them). Filters run on
 * `users` alone (indexed keys, `users(created_at, id)`), then what the page shows is read for the
 * page's ids only, in four batched statements: no per-row query, no aggregate over every user.
 */
export class PeopleRepository {
  constructor(private readonly context: RepositoryContext) {}

  /**
   * One page of people, newest first; with a `prefix`, in the order of the name, external id or
   * email that matched, then by id (a typeahead's order, and an index range scan that stops after
   * a page: see `searchPeople`).
   */
  async list(filter: PeopleFilter, range: DayRange, page: PageRequest = {}): Promise<Page<Person>> {
    const rowFilter = {
      ...(filter.portalId === undefined ? {} : { portalId: filter.portalId }),
      ...(filter.role === undefined ? {} : { role: filter.role }),
    };
    const users =
      filter.prefix !== undefined && filter.prefix.length > 0
        ? await searchPeople(this.context, filter.prefix, rowFilter, page)
        : await newestFirstPage(
            this.context.db
              .selectFrom('users')
              .selectAll()
              .where((eb) => whereUserMatches(eb, rowFilter)),
            page,
            toUser,
          );
    const people = await this.describe(users.items, range);
    return { items: people, nextCursor: users.nextCursor };
  }

  /** One person, or undefined. */
  async get(userId: string, range: DayRange): Promise<Person | undefined> {
    const row = await this.context.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const [person] = await this.describe([toUser(row)], range);
    return person;
  }

  /**
   * The display names of these users (id → name; users without a name or unknown ids are absent),
   * in one statement: how a page of sessions, keys or audit entries names its people.
   */
  async namesOf(userIds: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
    const ids = [...new Set(userIds.filter((id): id is string => typeof id === 'string' && id.length > 0))];
    if (ids.length === 0) return new Map();
    const rows = await this.context.db
      .selectFrom('users')
      .select(['id', 'display_name'])
      .where('id', 'in', ids)
      .where('display_name', 'is not', null)
      .execute();
    return new Map(rows.map((row) => [row.id, row.display_name ?? '']));
  }

  /**
   * The users a person's name, email, external id or id names exactly (case-insensitive), at most
   * `limit`: how a filter written as "alice" finds alice.
   */
  async resolve(text: string, limit = 100): Promise<string[]> {
    const { db } = this.context;
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('id', '=', text),
          eb('name_key', '=', sql<string>`lower(${text})`),
          eb('external_key', '=', sql<string>`lower(${text})`),
          eb(
            'id',
            'in',
            eb
              .selectFrom('sso_identities')
              .select('user_id')
              .where('email_key', '=', sql<string>`lower(${text})`),
          ),
        ]),
      )
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Every person the directory's filters match, by id, in keyset chunks with what the directory
   * shows about them over `range` (the users export; see `people-export.ts`).
   */
  exportAll(filter: PeopleFilter, range: DayRange): ExportChunks<Person> {
    return exportPeople(this.context, filter, (users) => this.describe(users, range));
  }

  /** What the directory shows about these users, read for their ids only (four statements). */
  describeUsers(users: readonly User[], range: DayRange): Promise<Person[]> {
    return this.describe(users, range);
  }

  private async describe(users: readonly User[], range: DayRange): Promise<Person[]> {
    if (users.length === 0) return [];
    const ids = users.map((user) => user.id);
    const { db } = this.context;
    const [sessions, identities, keys, usage] = await Promise.all([
      db
        .selectFrom('sessions')
        .select((eb) => [
          'owner_user_id',
          eb.fn.countAll<number | string>().as('session_count'),
          eb.fn.max('updated_at').as('last_active_at'),
        ])
        .where('owner_user_id', 'in', ids)
        .groupBy('owner_user_id')
        .execute(),
      db
        .selectFrom('sso_identities')
        .select(['user_id', 'email', 'role'])
        .where('user_id', 'in', ids)
        .execute(),
      db
        .selectFrom('api_keys')
        .select(['owner_user_id', 'role'])
        .where('owner_user_id', 'in', ids)
        .where('revoked_at', 'is', null)
        .execute(),
      db
        .selectFrom('usage_daily_totals')
        .select((eb) => [
          'group_key',
          sumOf(eb, 'input_tokens'),
          sumOf(eb, 'output_tokens'),
          sumOf(eb, 'thinking_tokens'),
          sumOf(eb, 'cached_tokens'),
          sumOf(eb, 'model_calls'),
          sumOf(eb, 'cost_micros'),
          sumOf(eb, 'unpriced_calls'),
        ])
        .where('grouping', '=', 'user')
        .where('group_key', 'in', ids)
        .where('day', '>=', range.fromDay)
        .where('day', '<=', range.toDay)
        .groupBy('group_key')
        .execute(),
    ]);
    const sessionsOf = new Map(sessions.map((row) => [row.owner_user_id, row]));
    const identityOf = new Map(identities.map((row) => [row.user_id, row]));
    const usageOf = new Map(usage.map((row) => [row.group_key, row]));
    const rolesOf = new Map<string, Role[]>();
    for (const key of keys) {
      if (key.owner_user_id === null) continue;
      rolesOf.set(key.owner_user_id, [...(rolesOf.get(key.owner_user_id) ?? []), key.role]);
    }
    return users.map((user) => {
      const sessionRow = sessionsOf.get(user.id);
      const identity = identityOf.get(user.id);
      const held = [...(rolesOf.get(user.id) ?? [])];
      if (identity !== undefined && identity.role !== 'none') held.push(identity.role);
      const usageRow = usageOf.get(user.id);
      const lastActive = sessionRow?.last_active_at;
      return {
        user,
        email: identity?.email ?? null,
        role: roleRank.find((role) => held.includes(role)) ?? null,
        sessionCount: Number(sessionRow?.session_count ?? 0),
        lastActiveAt: lastActive === undefined || lastActive === null ? null : new Date(Number(lastActive)),
        usage:
          usageRow === undefined
            ? noUsage
            : {
                inputTokens: Number(usageRow.input_tokens),
                outputTokens: Number(usageRow.output_tokens),
                thinkingTokens: Number(usageRow.thinking_tokens),
                cachedTokens: Number(usageRow.cached_tokens),
                modelCalls: Number(usageRow.model_calls),
                costMicros: Number(usageRow.cost_micros),
                unpricedCalls: Number(usageRow.unpriced_calls),
              },
      };
    });
  }
}

type SummedColumn =
  | 'input_tokens'
  | 'output_tokens'
  | 'thinking_tokens'
  | 'cached_tokens'
  | 'model_calls'
  | 'cost_micros'
  | 'unpriced_calls';

// PostgreSQL sums bigints as numeric (a string through pg); Number() above reads both engines alike.
function sumOf<Column extends SummedColumn>(
  eb: ExpressionBuilder<Database, 'usage_daily_totals'>,
  column: Column,
) {
  return eb.fn.sum<number | string>(column).as(column);
}
