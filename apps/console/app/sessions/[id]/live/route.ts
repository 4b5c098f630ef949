import { handleLiveFeed } from '../../../../features/transcript';

export const dynamic = 'force-dynamic';
export const GET = handleLiveFeed;
