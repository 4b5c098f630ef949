import type { SessionFilters } from '../session-filters';

/** A GET form: applying filters changes the URL, so the list is bookmarkable and Back works. */
export function SessionFilterForm({ filters }: { filters: SessionFilters }) {
  return (
    <form method="get" action="/sessions" className="filters" aria-label="Filter sessions">
      <div className="field">
        <label htmlFor="filter-user">User id</label>
        <input id="filter-user" name="user" defaultValue={filters.user ?? ''} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor="filter-portal">Portal id</label>
        <input id="filter-portal" name="portal" defaultValue={filters.portal ?? ''} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor="filter-model">Model</label>
        <input id="filter-model" name="model" defaultValue={filters.model ?? ''} spellCheck={false} />
      </div>
      <div className="field">
        <label htmlFor="filter-label">Label contains</label>
        <input id="filter-label" name="label" defaultValue={filters.label ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" name="status" defaultValue={filters.status ?? ''}>
          <option value="">Any</option>
          <option value="open">Open</option>
          <option value="closed">Closed</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-from">Created from</label>
        <input id="filter-from" name="from" type="date" defaultValue={filters.from ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="filter-to">Created to</label>
        <input id="filter-to" name="to" type="date" defaultValue={filters.to ?? ''} />
      </div>
      <div className="field actions">
        <button type="submit">Apply filters</button>
        <a href="/sessions">Clear</a>
      </div>
    </form>
  );
}
