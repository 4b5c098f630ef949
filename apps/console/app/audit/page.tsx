import { AuditPage } from '../../features/audit';

export const dynamic = 'force-dynamic';

export default async function Audit({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <AuditPage searchParams={await searchParams} />;
}
