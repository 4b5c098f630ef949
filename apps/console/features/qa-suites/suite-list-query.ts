import { pagedListQuery } from '../url-state';

/** The suites page's URL: the page of its list (newest first, no filters). */
export const suiteListQuery = pagedListQuery('/suites', {});
