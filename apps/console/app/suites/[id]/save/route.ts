import { handleSaveSuite } from '../../../../features/qa-suites';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleSaveSuite(request, (await params).id);
}
