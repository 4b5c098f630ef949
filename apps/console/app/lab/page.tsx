import { requirePageScope } from '../../features/auth';
import { LabPage } from '../../features/lab';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Lab({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('lab:read');
  return <LabPage access={access} searchParams={await searchParams} />;
}
