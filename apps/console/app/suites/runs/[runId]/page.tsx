import { requirePageScope } from '../../../../features/auth';
import { SuiteRunPage } from '../../../../features/qa-suites';
import type { SearchParams } from '../../../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function SuiteRun({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await requirePageScope('suites:read');
  const { runId } = await params;
  return <SuiteRunPage access={access} runId={runId} searchParams={await searchParams} />;
}
