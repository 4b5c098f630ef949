import { LabPage } from '../../features/lab';

export const dynamic = 'force-dynamic';

export default async function Lab({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { cursor } = await searchParams;
  return <LabPage cursor={typeof cursor === 'string' ? cursor : undefined} />;
}
