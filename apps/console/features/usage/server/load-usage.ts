import { usageReportJsonSchema, type UsageReportJson } from '@agentdesk/api-contract';
import { getFromApi } from '../../api-client';
import type { UsageView } from '../usage-view';

/** The usage report for a view; the API audits the read with the console's reason. */
export function loadUsage(apiKey: string, view: UsageView): Promise<UsageReportJson> {
  return getFromApi(
    apiKey,
    '/v1/admin/usage',
    { groupBy: view.groupBy, from: view.from, to: view.to, reason: 'console: usage page' },
    usageReportJsonSchema,
  );
}
