import { requirePageScope } from '../../features/auth';
import { SessionsPage } from '../../features/sessions';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Sessions({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('sessions:read-any');
  return <SessionsPage access={access} searchParams={await searchParams} />;
}
