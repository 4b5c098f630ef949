import { handleExport } from '../../../features/exports';

export const dynamic = 'force-dynamic';
export const GET = handleExport;
