import { requirePageScope } from '../../../features/auth';
import { PersonPage } from '../../../features/people';
import type { SearchParams } from '../../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function User({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await requirePageScope('users:read');
  return <PersonPage access={access} userId={(await params).id} searchParams={await searchParams} />;
}
