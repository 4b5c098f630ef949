import { handleImportIntoSuite } from '../../../../features/qa-suites';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleImportIntoSuite(request, (await params).id);
}
