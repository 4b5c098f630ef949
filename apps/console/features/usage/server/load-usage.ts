import { usageReportJsonSchema, type UsageReportJson } from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import type { UsageView } from '../usage-view';

/** The usage report for a view; the API audits the read with the console's reason. */
export function loadUsage(credential: ApiCredential, view: UsageView): Promise<UsageReportJson> {
  return getFromApi(
    credential,
    '/v1/admin/usage',
    { groupBy: view.groupBy, from: view.from, to: view.to, reason: 'console: usage page' },
    usageReportJsonSchema,
  );
}
