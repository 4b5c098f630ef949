import type { Role } from '@agentdesk/authz';
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';
import type { AuditActorKind, AuditOutcome } from './models/audit-entry';
import type { QaCellStatus, QaRunStatus } from './models/qa-run';
import type { ConsoleSessionEndReason, ConsoleWayIn } from './models/console-session';
import type { SsoRole } from './models/sso-identity';

/*
 * Column conventions shared by both engines (one code path, no per-engine mapping):
 * - ids are `text` (see `ids.ts`);
 * - timestamps are epoch milliseconds in `bigint`/`integer` columns — exact, timezone-free,
 *   compact in indexes, and compared the same way on SQLite and PostgreSQL;
 * - booleans are 0/1 integers (better-sqlite3 cannot bind JS booleans);
 * - JSON is `jsonb` on PostgreSQL and `text` on SQLite, written and read as text.
 */

/** 0 or 1. */
export type IntegerBoolean = 0 | 1;

/** A JSON document written and read as text. */
export type JsonText = string;

/** `users`: people and portal end users; one row per (portal, external id). */
export interface UsersTable {
  id: string;
  /** Null for users not created through a portal (admins, QA). */
  portal_id: string | null;
  external_id: string;
  display_name: string | null;
  created_at: number;
  /** `lower(display_name)`, kept by the engine, indexed for prefix search (migration 0015). */
  name_key: GeneratedAlways<string | null>;
  /** `lower(external_id)`, kept by the engine, indexed for prefix search (migration 0015). */
  external_key: GeneratedAlways<string>;
}

/** `api_keys`: only the SHA-256 of the secret is stored. */
export interface ApiKeysTable {
  id: string;
  /** The visible part of the key, shown in listings to recognise it. */
  prefix: string;
  secret_hash: string;
  role: Role;
  owner_user_id: string | null;
  portal_id: string | null;
  trust_client_user_id: IntegerBoolean;
  label: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** `sessions`: one agent conversation, owned by one user. */
export interface SessionsTable {
  id: string;
  owner_user_id: string;
  portal_id: string | null;
  label: string;
  status: 'open' | 'closed';
  model: string | null;
  system_prompt: string | null;
  metadata: JsonText;
  input_tokens: Generated<number>;
  output_tokens: Generated<number>;
  thinking_tokens: Generated<number>;
  cached_tokens: Generated<number>;
  /** Micro-dollars of the priced answers' usage (migration 0014). */
  cost_micros: Generated<number>;
  /** Answers with usage whose model had no price (their cost is unknown). */
  unpriced_calls: Generated<number>;
  /** Last assigned message `seq`; incremented under the row lock to number messages. */
  message_count: Generated<number>;
  created_at: number;
  updated_at: number;
  /** The running agent turn, if any; a lease that expires so a crashed server cannot hold it forever. */
  active_turn_id: string | null;
  active_turn_expires_at: number | null;
}

/** `messages`: the ordered transcript of a session. */
export interface MessagesTable {
  id: string;
  session_id: string;
  seq: number;
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: JsonText;
  tool_calls: JsonText | null;
  tool_call_id: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  thinking_tokens: number | null;
  cached_tokens: number | null;
  status: 'pending' | 'complete' | 'failed';
  error: JsonText | null;
  model: string | null;
  compression_events: JsonText | null;
  idempotency_key: string | null;
  /** Hash of the canonical request that first used `idempotency_key`; null before migration 0003. */
  idempotency_fingerprint: string | null;
  /** Tokens the message costs the model, counted by the writer; null before migration 0009. */
  token_count: number | null;
  started_at: number;
  finished_at: number | null;
  created_at: ColumnType<number, number, never>;
}

/** `tool_results`: full tool outputs, kept even when the model saw a truncated copy. */
export interface ToolResultsTable {
  id: string;
  session_id: string;
  message_id: string | null;
  tool_call_id: string;
  content: string;
  char_count: number;
  created_at: number;
}

/** `audit_log`: append-only; no foreign keys so records outlive what they describe. */
export interface AuditLogTable {
  id: string;
  at: number;
  actor_principal_id: string;
  actor_api_key_id: string | null;
  action: string;
  target_user_id: string | null;
  session_id: string | null;
  reason: string | null;
  /** The server's own id of the request that was audited. */
  request_id: string | null;
  /** The client's `X-Request-Id`, untrusted, kept for correlation only. */
  client_request_id: string | null;
  /** JSON: what a listing showed (`{ filter, count }`), what a change changed, why an attempt was refused. */
  details: string | null;
  /** What `actor_principal_id` names (migration 0012; earlier rows `user`). */
  actor_kind: AuditActorKind;
  /** How the actor authenticated (`api-key`, `console-session`, `host-command`); null before 0012. */
  way_in: string | null;
  /** Succeeded, refused or failed (earlier rows `succeeded`). */
  outcome: AuditOutcome;
  /** What was changed: its kind (`api-key`, `lab-run`, …) and id, when the record is of a change. */
  target_kind: string | null;
  target_id: string | null;
}

/** The Kysely database type. */
export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  structured_output_runs: StructuredOutputRunsTable;
  messages: MessagesTable;
  tool_results: ToolResultsTable;
  audit_log: AuditLogTable;
  sandbox_builds: SandboxBuildsTable;
  usage_events: UsageEventsTable;
  usage_daily_totals: UsageDailyTotalsTable;
  model_prices: ModelPricesTable;
  console_sessions: ConsoleSessionsTable;
  sso_identities: SsoIdentitiesTable;
  sso_sign_in_codes: SsoSignInCodesTable;
  qa_suites: QaSuitesTable;
  qa_suite_versions: QaSuiteVersionsTable;
  qa_suite_runs: QaSuiteRunsTable;
  qa_run_cells: QaRunCellsTable;
}

/** `structured_output_runs`: one schema and prompt tried against several provider/model targets. */
export interface StructuredOutputRunsTable {
  id: string;
  actor_principal_id: string;
  name: string;
  schema: JsonText;
  prompt: string;
  targets: JsonText;
  results: JsonText;
  created_at: number;
  finished_at: number;
}

/** `sandbox_builds`: one ensure/rebuild of the sandbox image; `created_at` is when it started. */
export interface SandboxBuildsTable {
  id: string;
  tag: string;
  force: IntegerBoolean;
  /**
   * `admin` (an API call), `start-up` (the ensure the API runs when it starts) or `session` (a
   * session's sandbox needed the missing image; migration 0010).
   */
  trigger: 'admin' | 'start-up' | 'session';
  actor_principal_id: string | null;
  actor_api_key_id: string | null;
  /** The session whose sandbox started a `session` build; null otherwise. */
  session_id: string | null;
  /** That session's owner when the build started. */
  session_owner_user_id: string | null;
  status: 'running' | 'current' | 'built' | 'failed' | 'interrupted';
  image_id_before: string | null;
  image_id_after: string | null;
  error: string | null;
  /** The build log (JSON array of events), written when the build ends. */
  events: JsonText | null;
  created_at: number;
  finished_at: number | null;
}

/** `usage_events`: one model call outcome, metered by the API (see migration 0008). */
export interface UsageEventsTable {
  /** Generated at the call: the idempotency key of the batch insert. */
  id: string;
  occurred_at: number;
  /** UTC `YYYY-MM-DD` of `occurred_at`. */
  day: string;
  source: 'chat-completion' | 'agent-turn' | 'lab-run';
  model: string;
  provider: string | null;
  api_key_id: string | null;
  portal_id: string | null;
  /** The effective user (`users.id`) the call was made for; null when none (a portal naming nobody). */
  end_user_id: string | null;
  input_tokens: number;
  output_tokens: number;
  thinking_tokens: number;
  cached_tokens: number;
  latency_ms: number;
  status: 'ok' | 'failed' | 'cancelled';
  /** Micro-dollars, computed when written with `price_id`'s version; null: no price (migration 0014). */
  cost_micros: number | null;
  price_id: string | null;
}

/** `usage_daily_totals`: `usage_events` summed per grouping × UTC day × key, kept in step by the batch writer. */
export interface UsageDailyTotalsTable {
  grouping: 'model' | 'provider' | 'portal' | 'user';
  day: string;
  /** The model, provider, portal id or end user id; '' for none. */
  group_key: string;
  input_tokens: number;
  output_tokens: number;
  thinking_tokens: number;
  cached_tokens: number;
  model_calls: number;
  /** Micro-dollars of the priced calls (migration 0014). */
  cost_micros: Generated<number>;
  /** Calls without a price (their cost is unknown, not 0). */
  unpriced_calls: Generated<number>;
}

/**
 * `model_prices` (migration 0014): one price version of one model, never updated or deleted.
 * Prices in integer micro-dollars per million tokens.
 */
export interface ModelPricesTable {
  id: string;
  model: string;
  provider: string;
  input_micros_per_million: number;
  cached_input_micros_per_million: number;
  output_micros_per_million: number;
  thinking_micros_per_million: number;
  /** Epoch ms from which this version is the model's price (until a later version's). */
  effective_from: number;
  created_at: number;
  /** The principal who added it; `seed` for the shipped defaults. */
  created_by: string;
}

/**
 * `console_sessions` (migration 0011): one console sign-in, held on the server so it can be ended.
 * Only the SHA-256 of the cookie's token is stored.
 */
export interface ConsoleSessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  /** The key an `api-key` sign-in was made with; null for other ways in. */
  api_key_id: string | null;
  way_in: ConsoleWayIn;
  created_at: number;
  last_seen_at: number;
  /** Slides forward with use (`last_seen_at` + the idle timeout), never past `absolute_expires_at`. */
  idle_expires_at: number;
  absolute_expires_at: number;
  client_address: string | null;
  user_agent: string | null;
  ended_at: number | null;
  end_reason: ConsoleSessionEndReason | null;
}

/** `sso_identities`: a user as their OpenID provider last described them (migration 0013). */
export interface SsoIdentitiesTable {
  user_id: string;
  issuer: string;
  subject: string;
  email: string | null;
  /** `lower(email)`, kept by the engine, indexed for prefix search (migration 0015). */
  email_key: GeneratedAlways<string | null>;
  /** What the role mapping gave at the last sign-in; `none` opens nothing. */
  role: SsoRole;
  created_at: number;
  updated_at: number;
}

/** `sso_sign_in_codes`: one-time codes the console trades for a console session (hash only). */
export interface SsoSignInCodesTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** `qa_suites` (migration 0018): one QA suite; what listings show of its latest version. */
export interface QaSuitesTable {
  id: string;
  /** Unique. */
  name: string;
  description: string | null;
  latest_version: number;
  case_count: number;
  target_count: number;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** `qa_suite_versions`: every saved definition of a suite, never changed; key (suite_id, version). */
export interface QaSuiteVersionsTable {
  suite_id: string;
  version: number;
  definition: JsonText;
  note: string | null;
  created_by: string;
  created_at: number;
}

/** `qa_suite_runs`: one run of a suite version, with counters kept in step with its cells. */
export interface QaSuiteRunsTable {
  id: string;
  suite_id: string;
  suite_version: number;
  status: QaRunStatus;
  options: JsonText;
  created_by: string;
  created_at: number;
  finished_at: number | null;
  total: number;
  /** passed + failed + errored + cancelled. */
  done: number;
  passed: number;
  failed: number;
  errored: number;
  cancelled: number;
}

/** `qa_run_cells`: one case × target of a run; key (run_id, case_index, target_index). */
export interface QaRunCellsTable {
  run_id: string;
  case_index: number;
  target_index: number;
  case_id: string;
  status: QaCellStatus;
  attempts: number;
  claimed_by: string | null;
  lease_until: number | null;
  latency_ms: number | null;
  cost_micros: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  /** JSON array of assertion kinds. */
  failed_kinds: JsonText;
  reason: string | null;
  /** The target's full result and every assertion's outcome (the API owns the shape). */
  result: JsonText | null;
  finished_at: number | null;
}
