import { handleImportSuite } from '../../../features/qa-suites';

export const dynamic = 'force-dynamic';
export const POST = handleImportSuite;
