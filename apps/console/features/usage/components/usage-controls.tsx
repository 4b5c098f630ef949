import { usageGroupings } from '@agentdesk/api-contract';
import { DatePresets, FilterForm } from '../../url-state';
import { groupingLabels, usageHref, usageMeasures, type UsageView } from '../usage-view';

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
      <nav aria-label="Chart by" className="usage-groupings">
        <span className="muted">Chart by</span>
        {usageMeasures.map((measure) => (
          <a
            key={measure}
            href={usageHref(view, { measure })}
            aria-current={measure === view.measure ? 'true' : undefined}
          >
            {measure === 'tokens' ? 'Tokens' : 'Cost'}
          </a>
        ))}
      </nav>
      <FilterForm
        action="/usage"
        label="Date range"
        range={{ from: 'from', to: 'to', fromTitle: 'From', toTitle: 'To' }}
      >
        <input type="hidden" name="groupBy" value={view.groupBy} />
        <input type="hidden" name="measure" value={view.measure} />
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
        </div>
      </FilterForm>
      <DatePresets hrefFor={(preset) => usageHref(view, { from: preset.from, to: preset.to })} />
    </div>
  );
}
