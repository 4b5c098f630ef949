import type { Selectable } from 'kysely';
import type { SessionsTable } from '../database-schema';
import { fromJsonText, type JsonObject } from '../json';

/** Open sessions take new messages; closed ones are read-only. */
export type SessionStatus = 'open' | 'closed';

/** Token totals, normalized across providers. */
export interface TokenUsage {
  readonly input: number;
  readonly output: number;
  readonly thinking: number;
  readonly cached: number;
}

/** One agent conversation. */
export interface Session {
  readonly id: string;
  readonly ownerUserId: string;
  readonly portalId: string | null;
  readonly label: string;
  readonly status: SessionStatus;
  readonly model: string | null;
  readonly systemPrompt: string | null;
  readonly metadata: JsonObject;
  /** Sum of the usage of every finished message. */
  readonly tokenTotals: TokenUsage;
  /** Micro-dollars of the answers that had a price (migration 0014). */
  readonly costMicros: number;
  /** Answers with usage whose model had no price: the session's cost is unknown while any. */
  readonly unpricedCalls: number;
  readonly messageCount: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Maps a `sessions` row. */
export function toSession(row: Selectable<SessionsTable>): Session {
  return {
    id: row.id,
    ownerUserId: row.owner_user_id,
    portalId: row.portal_id,
    label: row.label,
    status: row.status,
    model: row.model,
    systemPrompt: row.system_prompt,
    metadata: fromJsonText<JsonObject>(row.metadata),
    tokenTotals: {
      input: row.input_tokens,
      output: row.output_tokens,
      thinking: row.thinking_tokens,
      cached: row.cached_tokens,
    },
    costMicros: Number(row.cost_micros),
    unpricedCalls: Number(row.unpriced_calls),
    messageCount: row.message_count,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
