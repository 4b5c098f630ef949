import { handleSuiteExport } from '../../../../features/qa-suites';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleSuiteExport(request, (await params).id);
}
