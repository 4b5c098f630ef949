import { handleRunEvents } from '../../../../../features/qa-suites';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handleRunEvents(request, (await params).runId);
}
