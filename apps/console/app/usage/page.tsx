import { UsagePage } from '../../features/usage';

export const dynamic = 'force-dynamic';

export default async function Usage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <UsagePage searchParams={await searchParams} />;
}
