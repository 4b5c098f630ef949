import { handleSignIn } from '../../../features/auth';

export const dynamic = 'force-dynamic';
export const POST = handleSignIn;
