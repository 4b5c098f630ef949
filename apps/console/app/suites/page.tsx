import { requirePageScope } from '../../features/auth';
import { SuitesPage } from '../../features/qa-suites';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Suites({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('suites:read');
  return <SuitesPage access={access} searchParams={await searchParams} />;
}
