import { handleRepin } from '../../../features/sandbox';

export const dynamic = 'force-dynamic';
export const POST = handleRepin;
