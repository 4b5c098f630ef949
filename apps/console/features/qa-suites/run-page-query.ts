import { caseIdSchema } from '@agentdesk/api-contract';
import { singleParam, type SearchParams } from '../url-state';

/**
 * A run page's URL: the run compared with another (`against`: a run id, or `latest` — the newest
 * finished run of the suite before this one), only the changed rows (`only=changes`), and the cell
 * (`case` + `target`) or the case across targets (`case` alone) opened under the matrix.
 */
export interface RunPageQuery {
  against: string | undefined;
  onlyChanges: boolean;
  caseId: string | undefined;
  targetIndex: number | undefined;
}

const runIdPattern = /^[A-Za-z0-9_-]{1,200}$/;

export function parseRunPageQuery(params: SearchParams): RunPageQuery {
  const against = singleParam(params, 'against');
  const caseId = singleParam(params, 'case');
  const target = singleParam(params, 'target');
  const comparing = against !== undefined && runIdPattern.test(against) ? against : undefined;
  return {
    against: comparing,
    onlyChanges: comparing !== undefined && singleParam(params, 'only') === 'changes',
    caseId: caseId !== undefined && caseIdSchema.safeParse(caseId).success ? caseId : undefined,
    targetIndex: target !== undefined && /^\d{1,3}$/.test(target) ? Number(target) : undefined,
  };
}

/** The run page's address with `query`; what is unset stays out of it. */
export function runPageHref(runId: string, query: Partial<RunPageQuery>): string {
  const params = new URLSearchParams();
  if (query.against !== undefined) params.set('against', query.against);
  if (query.onlyChanges === true) params.set('only', 'changes');
  if (query.caseId !== undefined) params.set('case', query.caseId);
  if (query.targetIndex !== undefined) params.set('target', String(query.targetIndex));
  const search = params.toString();
  return `/suites/runs/${encodeURIComponent(runId)}${search === '' ? '' : `?${search}`}`;
}
