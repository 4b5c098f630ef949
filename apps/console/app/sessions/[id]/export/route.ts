import { handleTranscriptExport } from '../../../../features/transcript';

export const dynamic = 'force-dynamic';
export const GET = handleTranscriptExport;
