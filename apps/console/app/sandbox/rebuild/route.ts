import { handleRebuild } from '../../../features/sandbox';

export const dynamic = 'force-dynamic';
export const POST = handleRebuild;
