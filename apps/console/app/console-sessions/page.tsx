import { ConsoleSessionsPage } from '../../features/console-sessions';

export const dynamic = 'force-dynamic';

export default async function ConsoleSessions({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <ConsoleSessionsPage searchParams={await searchParams} />;
}
