/** What an audit record says happened; data, so the console can list and filter them. */
export const auditActions = {
  /** An admin or viewer read another user's session (with its first page of messages). */
  sessionRead: 'admin.session.read',
  /** An admin or viewer read another user's transcript page. */
  sessionMessagesRead: 'admin.session.messages.read',
  /** An admin or viewer read a page of the full stored output of a tool call in another user's session. */
  sessionToolResultRead: 'admin.session.tool-result.read',
  /** An admin or viewer followed another user's session live (its running turns as they happen). */
  sessionLiveRead: 'admin.session.live.read',
  /** An admin or viewer listed sessions beyond their own (details: filter and count). */
  sessionsList: 'admin.sessions.list',
  /** An admin or viewer listed users (details: filter and count). */
  usersList: 'admin.users.list',
  /** An admin or viewer read one person's profile, sessions count and usage (target: the person). */
  userRead: 'admin.user.read',
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
  /** Someone signed in to the console: a console session was opened (details: its id and way in). */
  consoleSignIn: 'console.sign-in',
  /** Someone signed out of the console: their console session was ended (details: its id). */
  consoleSignOut: 'console.sign-out',
  /** An admin listed console sessions, which show people's addresses and browsers (details: filter and count). */
  consoleSessionsList: 'admin.console-sessions.list',
  /** An admin ended one console session (details: its id). */
  consoleSessionEnd: 'admin.console-session.end',
  /** An admin ended every open console session of a user, "sign out everywhere" (details: how many). */
  consoleSessionsEndAll: 'admin.console-sessions.end-all',
  /**
   * An admin created an API key, an admin key included (target: the key; its holder as the target
   * user; details: role, visible prefix, label, portal — never the secret).
   */
  apiKeyCreate: 'admin.api-key.create',
  /**
   * An admin added a model price version (target: the version; details: model, provider, prices in
   * micro-dollars per million tokens, effective from). Versions are never changed or removed.
   */
  modelPriceAdd: 'admin.model-price.add',
  /** An admin revoked an API key, an admin key included (target: the key; details: its role and prefix). */
  apiKeyRevoke: 'admin.api-key.revoke',
  /** An operator issued an admin key from the host (`npm run admin-key`); no API call, no principal. */
  hostAdminKeyIssue: 'host.admin-key.issue',
  /** An operator revoked an admin key from the host (`npm run admin-key -- --revoke-others`), one record per key. */
  hostAdminKeyRevoke: 'host.admin-key.revoke',
  /** An admin or viewer ran the structured-output lab (target: the stored run; details: its name and models). */
  labRunCreate: 'lab.run.create',
  /** A session was deleted with its messages and tool results (target: the session; its owner as the target user). */
  sessionDelete: 'session.delete',
  /**
   * An admin or viewer exported a list (sessions, users, usage, audit) as CSV or JSON Lines
   * (details: the list, format, filter, sort, rows sent and how the stream ended; `failed` when it
   * was cut short).
   */
  listExport: 'admin.export',
  /** Someone with suites:write created a QA suite (target: the suite; details: name, version, cases, targets). */
  qaSuiteCreate: 'qa.suite.create',
  /** Someone with suites:write created a QA suite from a YAML, JSON or promptfoo file (details add the format). */
  qaSuiteImport: 'qa.suite.import',
  /**
   * Someone with suites:write saved a new version of a QA suite: edited, imported into it, or a lab run
   * added as a case (target: the suite; details: the new version and its size).
   */
  qaSuiteSave: 'qa.suite.save',
  /** Someone with suites:run started a run of a QA suite: model calls that cost money (target: the run; details: suite, version, cells, models). */
  qaRunStart: 'qa.run.start',
  /** Someone with suites:run cancelled a running QA suite run (target: the run). */
  qaRunCancel: 'qa.run.cancel',
} as const;

export type AuditAction = (typeof auditActions)[keyof typeof auditActions];
