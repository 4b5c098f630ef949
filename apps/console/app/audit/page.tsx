import { requirePageScope } from '../../features/auth';
import { AuditPage } from '../../features/audit';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Audit({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('audit:read');
  return <AuditPage access={access} searchParams={await searchParams} />;
}
