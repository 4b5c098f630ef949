import { PersonSuggestions } from '../../people';
import { DatePresets, DateRangeFields, FilterActions, FilterForm } from '../../url-state';
import { sessionRangeTitles, sessionsHref, type SessionFilters } from '../session-filters';

/** A GET form: applying filters changes the URL, so the list is bookmarkable and Back works. */
export function SessionFilterForm({ filters }: { filters: SessionFilters }) {
  return (
    <>
      <FilterForm
        action="/sessions"
        label="Filter sessions"
        range={{ from: 'from', to: 'to', fromTitle: sessionRangeTitles.from, toTitle: sessionRangeTitles.to }}
      >
        <div className="field">
          <label htmlFor="filter-user">User (name, email or id)</label>
          <input
            id="filter-user"
            name="user"
            defaultValue={filters.user ?? ''}
            spellCheck={false}
            list="filter-user-suggestions"
            autoComplete="off"
          />
          <PersonSuggestions inputId="filter-user" listId="filter-user-suggestions" />
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
        <DateRangeFields
          idPrefix="filter"
          labels={{ from: 'Created from', to: 'Created to' }}
          from={filters.from}
          to={filters.to}
        />
        <FilterActions clearHref="/sessions" sort={filters.sort} dir={filters.dir} />
      </FilterForm>
      <DatePresets
        hrefFor={(preset) => sessionsHref(filters, { from: preset.from, to: preset.to, cursor: undefined })}
      />
    </>
  );
}
