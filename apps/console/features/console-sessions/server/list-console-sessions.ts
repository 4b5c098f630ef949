import { consoleSessionJsonSchema, pageJsonSchema } from '@agentdesk/api-contract';
import type { z } from 'zod';
import { getFromApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';
import type { ConsoleSessionView } from '../console-session-view';

export const CONSOLE_SESSIONS_PAGE_SIZE = 25;

const consoleSessionsPageSchema = pageJsonSchema(consoleSessionJsonSchema);
export type ConsoleSessionsPage = z.output<typeof consoleSessionsPageSchema>;

/** One page of console sign-ins, newest first (the API audits the listing with this reason). */
export function listConsoleSessions(
  credential: ApiCredential,
  view: ConsoleSessionView,
): Promise<ConsoleSessionsPage> {
  return getFromApi(
    credential,
    '/v1/admin/console-sessions',
    {
      userId: view.userId,
      includeEnded: view.includeEnded ? 'true' : undefined,
      ...pageQuery(view.cursor, CONSOLE_SESSIONS_PAGE_SIZE),
      reason: 'console: sign-ins page',
    },
    consoleSessionsPageSchema,
  );
}
