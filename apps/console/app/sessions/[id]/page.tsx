import { requirePageScope } from '../../../features/auth';
import { SessionPage } from '../../../features/transcript';

export const dynamic = 'force-dynamic';

export default async function Session({ params }: { params: Promise<{ id: string }> }) {
  const access = await requirePageScope('messages:read-any');
  const { id } = await params;
  return <SessionPage access={access} sessionId={id} />;
}
