import { listQuery, patternField } from '../url-state';

const buildIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The sandbox page's URL: the build whose log to follow (`build`, a build id; anything else is
 * dropped and the page follows the build in progress, if any).
 */
export const sandboxQuery = listQuery('/sandbox', { build: patternField(buildIdPattern) });
