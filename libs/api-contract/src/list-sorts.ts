/**
 * Server-side sort orders of the admin lists (`sort=<field>&dir=asc|desc`). Data, so the API
 * validates against the same names the console's column headers link to. Every order is stable:
 * ties are broken by id in the same direction, and empty values (a key never used) come last in
 * both directions.
 */

/** Which way a list is sorted. */
export const sortDirections = ['asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

/** Sessions: created, last updated, message count, tokens (input + output), label. */
export const sessionSortFields = ['created', 'updated', 'messages', 'tokens', 'label'] as const;
export type SessionSortField = (typeof sessionSortFields)[number];

/** Audit records: when, and the action (then when). */
export const auditSortFields = ['at', 'action'] as const;
export type AuditSortField = (typeof auditSortFields)[number];

/** API keys: created, last used (never used last), label. */
export const apiKeySortFields = ['created', 'lastUsed', 'label'] as const;
export type ApiKeySortField = (typeof apiKeySortFields)[number];

/** One sort order of a list with these fields. */
export interface ListSort<Field extends string> {
  readonly field: Field;
  readonly direction: SortDirection;
}

/** The order a list has when none is asked for: newest first. */
export const defaultSessionSort: ListSort<SessionSortField> = { field: 'created', direction: 'desc' };
export const defaultAuditSort: ListSort<AuditSortField> = { field: 'at', direction: 'desc' };
export const defaultApiKeySort: ListSort<ApiKeySortField> = { field: 'created', direction: 'desc' };

/** The lists that can be exported (`GET /v1/admin/exports/<list>`). */
export const exportLists = ['sessions', 'users', 'usage', 'audit'] as const;
export type ExportList = (typeof exportLists)[number];

/** Export file formats: CSV (RFC 4180) or JSON Lines. */
export const exportFormats = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof exportFormats)[number];
