import { handleSsoStart } from '../../../../features/auth';

export const dynamic = 'force-dynamic';
export const GET = handleSsoStart;
