import { handlePeopleSuggestions } from '../../../features/people';

export const dynamic = 'force-dynamic';
export const GET = handlePeopleSuggestions;
