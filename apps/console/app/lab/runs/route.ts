import { handleCreateRun } from '../../../features/lab';

export const dynamic = 'force-dynamic';
export const POST = handleCreateRun;
