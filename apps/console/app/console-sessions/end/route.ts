import { handleEndConsoleSession } from '../../../features/console-sessions';

export const dynamic = 'force-dynamic';
export const POST = handleEndConsoleSession;
