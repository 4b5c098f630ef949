import { DatePresets, DateRangeFields, FilterActions, FilterForm } from '../../url-state';
import { auditHref, auditRangeTitles, type AuditFilters } from '../audit-filters';

/** A GET form: the filters go into the URL, so a filtered log can be bookmarked and shared. */
export function AuditFilterForm({ filters }: { filters: AuditFilters }) {
  return (
    <>
      <FilterForm
        action="/audit"
        label="Filter the audit log"
        range={{ from: 'from', to: 'to', fromTitle: auditRangeTitles.from, toTitle: auditRangeTitles.to }}
      >
        <div className="field">
          <label htmlFor="audit-actor">Actor (user id)</label>
          <input id="audit-actor" name="actor" defaultValue={filters.actor ?? ''} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <input
            id="audit-action"
            name="action"
            defaultValue={filters.action ?? ''}
            placeholder="admin.session.read"
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-outcome">Outcome</label>
          <select id="audit-outcome" name="outcome" defaultValue={filters.outcome ?? ''}>
            <option value="">Any</option>
            <option value="succeeded">Succeeded</option>
            <option value="refused">Refused</option>
            <option value="failed">Failed</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-target">Target user id</label>
          <input id="audit-target" name="target" defaultValue={filters.target ?? ''} spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="audit-session">Session id</label>
          <input id="audit-session" name="session" defaultValue={filters.session ?? ''} spellCheck={false} />
        </div>
        <DateRangeFields idPrefix="audit" from={filters.from} to={filters.to} />
        <FilterActions clearHref="/audit" sort={filters.sort} dir={filters.dir} />
      </FilterForm>
      <DatePresets
        hrefFor={(preset) => auditHref(filters, { from: preset.from, to: preset.to, cursor: undefined })}
      />
    </>
  );
}
