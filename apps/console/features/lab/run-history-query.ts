import { pagedListQuery } from '../url-state';

/** The lab page's URL: the page of its run history (no filters: newest first). */
export const runHistoryQuery = pagedListQuery('/lab', {});
