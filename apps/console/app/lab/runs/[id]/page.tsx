import { requirePageScope } from '../../../../features/auth';
import { RunPage } from '../../../../features/lab';
import { SaveLabRunAsCase } from '../../../../features/qa-suites';

export const dynamic = 'force-dynamic';

export default async function LabRun({ params }: { params: Promise<{ id: string }> }) {
  const access = await requirePageScope('lab:read');
  const { id } = await params;
  return (
    <RunPage
      access={access}
      runId={id}
      saveAsCase={(run) => (
        <SaveLabRunAsCase signedIn={access.signedIn} labRunId={run.id} runName={run.name} />
      )}
    />
  );
}
