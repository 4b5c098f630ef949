import { SandboxPage } from '../../features/sandbox';

export const dynamic = 'force-dynamic';

export default async function Sandbox({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { build } = await searchParams;
  return <SandboxPage buildParameter={typeof build === 'string' ? build : undefined} />;
}
