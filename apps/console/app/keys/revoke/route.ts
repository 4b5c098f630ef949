import { handleRevokeKey } from '../../../features/keys';

export const dynamic = 'force-dynamic';
export const POST = handleRevokeKey;
