import { SessionsPage } from '../../features/sessions';

export const dynamic = 'force-dynamic';

export default async function Sessions({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <SessionsPage searchParams={await searchParams} />;
}
