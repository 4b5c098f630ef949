import { requirePageScope } from '../../features/auth';
import { UsagePage } from '../../features/usage';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Usage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('usage:read');
  return <UsagePage access={access} searchParams={await searchParams} />;
}
