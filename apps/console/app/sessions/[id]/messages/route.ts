import { handleMessagesPage } from '../../../../features/transcript';

export const dynamic = 'force-dynamic';
export const GET = handleMessagesPage;
