import { exportFormats, exportLists, type ExportFormat, type ExportList } from '@agentdesk/api-contract';
import { NO_STORE, apiBaseUrl, consoleRefusal, credentialHeaders } from '../../api-client';
import { routeCaller } from '../../auth';
import { parseAuditFilters, toAuditQuery } from '../../audit';
import { parsePeopleFilters, toPeopleQuery } from '../../people';
import { parseSessionFilters, toAdminListQuery } from '../../sessions';
import { parseUsageView } from '../../usage';
import type { SearchParams } from '../../url-state';

type ApiQuery = Record<string, string | undefined>;

/** The API export query of a list page's own URL parameters (its filters; the page's cursor left out). */
function apiQueryOf(list: ExportList, params: SearchParams): { query: ApiQuery } | { problems: string[] } {
  switch (list) {
    case 'sessions': {
      const parsed = parseSessionFilters(params);
      if (parsed.problems.length > 0) return { problems: parsed.problems };
      const { limit: _limit, cursor: _cursor, ...query } = toAdminListQuery(parsed.filters, 1);
      return { query };
    }
    case 'audit': {
      const parsed = parseAuditFilters(params);
      if (parsed.problems.length > 0) return { problems: parsed.problems };
      const { limit: _limit, cursor: _cursor, ...query } = toAuditQuery(parsed.filters, 1);
      return { query };
    }
    case 'usage': {
      const parsed = parseUsageView(params);
      if (parsed.problems.length > 0) return { problems: parsed.problems };
      return { query: { from: parsed.view.from, to: parsed.view.to } };
    }
    case 'users': {
      const parsed = parsePeopleFilters(params);
      if (parsed.problems.length > 0) return { problems: parsed.problems };
      const { limit: _limit, cursor: _cursor, ...query } = toPeopleQuery(parsed.filters, 1);
      return { query };
    }
  }
}

function searchParamsOf(url: URL): SearchParams {
  const params: Record<string, string> = {};
  for (const [name, value] of url.searchParams) params[name] = value;
  return params;
}

/**
 * `GET /exports/<list>?format=csv|jsonl&<the list page's filters>`: the API's streamed export relayed
 * to the browser as it arrives (never buffered here), with the API's file name; the API checks the
 * scope and audits the export. A refusal before the stream is relayed as the API's JSON.
 */
export async function handleExport(
  request: Request,
  { params }: { params: Promise<{ list: string }> },
): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const { list } = await params;
  if (!(exportLists as readonly string[]).includes(list))
    return consoleRefusal('not-found', `No export named ${list}: ${exportLists.join(', ')}`);
  const url = new URL(request.url);
  const format = url.searchParams.get('format') ?? 'csv';
  if (!(exportFormats as readonly string[]).includes(format))
    return consoleRefusal('invalid-input', 'format: must be csv or jsonl');
  const asked = apiQueryOf(list as ExportList, searchParamsOf(url));
  if ('problems' in asked) return consoleRefusal('invalid-input', asked.problems.join('; '));
  const query = new URLSearchParams({ format: format as ExportFormat, reason: `console: ${list} export` });
  for (const [name, value] of Object.entries(asked.query)) if (value !== undefined) query.set(name, value);
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl()}/v1/admin/exports/${list}?${query.toString()}`, {
      headers: credentialHeaders(caller.signedIn.credential),
      cache: 'no-store',
      signal: request.signal,
    });
  } catch {
    return consoleRefusal('api-unreachable', `The API at ${apiBaseUrl()} cannot be reached`);
  }
  if (!response.ok || response.body === null) {
    const body = await response.text();
    return new Response(body, {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? 'application/json', ...NO_STORE },
    });
  }
  return new Response(response.body, {
    status: 200,
    headers: {
      'content-type': response.headers.get('content-type') ?? 'application/octet-stream',
      'content-disposition':
        response.headers.get('content-disposition') ?? `attachment; filename="${list}.${format}"`,
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}
