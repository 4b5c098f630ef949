import { requirePageScope } from '../../features/auth';
import { SearchPage } from '../../features/search';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Search({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('messages:read-any');
  return <SearchPage access={access} searchParams={await searchParams} />;
}
