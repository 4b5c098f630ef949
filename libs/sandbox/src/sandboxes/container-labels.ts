/**
 * Labels on every container we create. The owner label is what makes a container "ours": the
 * reaper, the reconciler and the admin list never look at a container without it.
 */
export const containerLabels = {
  owner: 'agentdesk.owner',
  /** `session` (assigned), `pool` (warm, unassigned) or `pin`. */
  role: 'agentdesk.sandbox.role',
  /** The session a container was created for (cold path); pooled containers carry it in their name. */
  session: 'agentdesk.sandbox.session',
  createdAt: 'agentdesk.sandbox.created-at',
} as const;

export type ContainerRole = 'session' | 'pool' | 'pin';
