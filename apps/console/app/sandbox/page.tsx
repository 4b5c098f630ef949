import { requirePageScope } from '../../features/auth';
import { SandboxPage } from '../../features/sandbox';
import type { SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function Sandbox({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await requirePageScope('sandbox:read');
  return <SandboxPage access={access} searchParams={await searchParams} />;
}
