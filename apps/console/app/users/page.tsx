import { requirePageScope } from '../../features/auth';
import { PeoplePage } from '../../features/people';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Users({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('users:read');
  return <PeoplePage access={access} searchParams={await searchParams} />;
}
