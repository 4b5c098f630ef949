/** What an audit record says happened; data, so the console can list and filter them. */
export const auditActions = {
  /** An admin or viewer read another user's session (with its first page of messages). */
  sessionRead: 'admin.session.read',
  /** An admin or viewer read another user's transcript page. */
  sessionMessagesRead: 'admin.session.messages.read',
} as const;

export type AuditAction = (typeof auditActions)[keyof typeof auditActions];
