import { RunPage } from '../../../../features/lab';

export const dynamic = 'force-dynamic';

export default async function LabRun({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunPage runId={id} />;
}
