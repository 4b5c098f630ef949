import { usageGroupings } from '@agentdesk/api-contract';
import { groupingLabels, usageHref, type UsageView } from '../usage-view';

/** The grouping as links (each a bookmarkable URL) and the range as a GET form: the view lives in the URL. */
export function UsageControls({ view }: { view: UsageView }) {
  return (
    <div className="usage-controls">
      <nav aria-label="Group by" className="usage-groupings">
        <span className="muted">Group by</span>
        {usageGroupings.map((grouping) => (
          <a
            key={grouping}
            href={usageHref(view, { groupBy: grouping })}
            aria-current={grouping === view.groupBy ? 'true' : undefined}
          >
            {groupingLabels[grouping]}
          </a>
        ))}
      </nav>
      <form method="get" action="/usage" className="filters" aria-label="Date range">
        <input type="hidden" name="groupBy" value={view.groupBy} />
        <div className="field">
          <label htmlFor="usage-from">From</label>
          <input id="usage-from" name="from" type="date" defaultValue={view.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="usage-to">To</label>
          <input id="usage-to" name="to" type="date" defaultValue={view.to ?? ''} />
        </div>
        <div className="field actions">
          <button type="submit">Show range</button>
          <a href={usageHref({ groupBy: view.groupBy })}>Last 30 days</a>
        </div>
      </form>
    </div>
  );
}
