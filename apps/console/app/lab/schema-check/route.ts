import { handleSchemaCheck } from '../../../features/lab';

export const dynamic = 'force-dynamic';
export const POST = handleSchemaCheck;
