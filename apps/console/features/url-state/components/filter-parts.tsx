/** The pieces every list's filter form ends with, so the lists ask for a range and keep their order alike. */

/** The day range inputs (`from`, `to`: UTC calendar days, `to` inclusive). */
export function DateRangeFields({
  idPrefix,
  labels = { from: 'From', to: 'To' },
  from,
  to,
}: {
  idPrefix: string;
  labels?: { from: string; to: string };
  from: string | undefined;
  to: string | undefined;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-from`}>{labels.from}</label>
        <input id={`${idPrefix}-from`} name="from" type="date" defaultValue={from ?? ''} />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-to`}>{labels.to}</label>
        <input id={`${idPrefix}-to`} name="to" type="date" defaultValue={to ?? ''} />
      </div>
    </>
  );
}

/** Apply and clear; the order chosen by a column header stays when the filters change. */
export function FilterActions({
  clearHref,
  sort,
  dir,
}: {
  clearHref: string;
  sort: string | undefined;
  dir: string | undefined;
}) {
  return (
    <>
      <div className="field actions">
        <button type="submit">Apply filters</button>
        <a href={clearHref}>Clear</a>
      </div>
      {sort !== undefined && <input type="hidden" name="sort" value={sort} />}
      {dir !== undefined && <input type="hidden" name="dir" value={dir} />}
    </>
  );
}
