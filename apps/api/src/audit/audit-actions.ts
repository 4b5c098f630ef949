/** What an audit record says happened; data, so the console can list and filter them. */
export const auditActions = {
  /** An admin or viewer read another user's session (with its first page of messages). */
  sessionRead: 'admin.session.read',
  /** An admin or viewer read another user's transcript page. */
  sessionMessagesRead: 'admin.session.messages.read',
  /** An admin or viewer read a page of the full stored output of a tool call in another user's session. */
  sessionToolResultRead: 'admin.session.tool-result.read',
  /** An admin or viewer listed sessions beyond their own (details: filter and count). */
  sessionsList: 'admin.sessions.list',
  /** An admin or viewer listed users (details: filter and count). */
  usersList: 'admin.users.list',
  /** An admin or viewer searched every user's message text (details: the words and the count). */
  messagesSearch: 'admin.messages.search',
  /** An admin listed API keys, whose labels and owners name users (details: filter and count). */
  apiKeysList: 'admin.api-keys.list',
  /** An admin or viewer read token usage per day, which names users and portals (details: filter and count). */
  usageRead: 'admin.usage.read',
  /** An admin read the audit log, which names users and the reasons their data was read. */
  auditList: 'admin.audit.list',
  /** An admin or viewer listed structured-output runs, which hold other principals' prompts. */
  labRunsList: 'lab.runs.list',
  /** An admin or viewer read a structured-output run another principal made. */
  labRunRead: 'lab.run.read',
  /** An admin started a rebuild of the sandbox image (the record names the build id as its reason). */
  sandboxImageRebuild: 'admin.sandbox.image.rebuild',
  /** An admin re-created the sandbox image's pin container. */
  sandboxImageRepin: 'admin.sandbox.image.repin',
  /**
   * An admin or viewer listed the sandbox containers, which name every user's sandboxed sessions
   * and their owners (details: filter and count).
   */
  sandboxContainersList: 'admin.sandbox.containers.list',
  /** An admin removed a sandbox container (a session's sandbox, a pool or a pin container). */
  sandboxContainerRemove: 'admin.sandbox.container.remove',
} as const;

export type AuditAction = (typeof auditActions)[keyof typeof auditActions];
