import { SessionPage } from '../../../features/transcript';

export const dynamic = 'force-dynamic';

export default async function Session({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SessionPage sessionId={id} />;
}
