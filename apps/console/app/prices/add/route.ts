import { handleAddPrice } from '../../../features/prices';

export const dynamic = 'force-dynamic';
export const POST = handleAddPrice;
