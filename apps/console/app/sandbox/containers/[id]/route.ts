import { handleRemoveContainer } from '../../../../features/sandbox';

export const dynamic = 'force-dynamic';

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleRemoveContainer(request, (await params).id);
}
