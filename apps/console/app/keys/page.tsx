import { requirePageScope } from '../../features/auth';
import { KeysPage } from '../../features/keys';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Keys({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('api-keys:read');
  return <KeysPage access={access} searchParams={await searchParams} />;
}
