import { SearchPage } from '../../features/search';

export const dynamic = 'force-dynamic';

export default async function Search({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <SearchPage searchParams={await searchParams} />;
}
