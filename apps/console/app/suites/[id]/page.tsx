import { requirePageScope } from '../../../features/auth';
import { SuitePage } from '../../../features/qa-suites';
import type { SearchParams } from '../../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Suite({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await requirePageScope('suites:read');
  const { id } = await params;
  return <SuitePage access={access} suiteId={id} searchParams={await searchParams} />;
}
