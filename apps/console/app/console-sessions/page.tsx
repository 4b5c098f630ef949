import { requirePageScope } from '../../features/auth';
import { ConsoleSessionsPage } from '../../features/console-sessions';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function ConsoleSessions({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('console-sessions:read');
  return <ConsoleSessionsPage access={access} searchParams={await searchParams} />;
}
