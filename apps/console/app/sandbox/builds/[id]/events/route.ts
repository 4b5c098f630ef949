import { handleBuildEvents } from '../../../../../features/sandbox';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleBuildEvents(request, (await params).id);
}
