import { handleCancelRun } from '../../../../../features/qa-suites';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ runId: string }> }) {
  return handleCancelRun(request, (await params).runId);
}
