import { KeysPage } from '../../features/keys';

export const dynamic = 'force-dynamic';

export default async function Keys({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <KeysPage searchParams={await searchParams} />;
}
