import type { AuditFilters } from '../audit-filters';

/** A GET form: the filters go into the URL, so a filtered log can be bookmarked and shared. */
export function AuditFilterForm({ filters }: { filters: AuditFilters }) {
  return (
    <form method="get" action="/audit" className="filters" aria-label="Filter the audit log">
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
      <div className="field">
        <label htmlFor="audit-from">From</label>
        <input id="audit-from" name="from" type="date" defaultValue={filters.from ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="audit-to">To</label>
        <input id="audit-to" name="to" type="date" defaultValue={filters.to ?? ''} />
      </div>
      <div className="field actions">
        <button type="submit">Apply filters</button>
        <a href="/audit">Clear</a>
      </div>
    </form>
  );
}
