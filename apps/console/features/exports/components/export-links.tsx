import type { ExportList } from '@agentdesk/api-contract';

/**
 * "Export CSV / JSON Lines" links for a list page: the page's own query (its filters) goes along,
 * so the file holds exactly what the list shows, every page of it.
 */
export function ExportLinks({ list, query }: { list: ExportList; query: string }) {
  const base = `/exports/${list}?${query === '' ? '' : `${query}&`}`;
  return (
    <p className="export-links">
      Export:{' '}
      <a href={`${base}format=csv`} download>
        CSV
      </a>{' '}
      ·{' '}
      <a href={`${base}format=jsonl`} download>
        JSON Lines
      </a>
    </p>
  );
}
