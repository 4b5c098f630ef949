import { datePresets, type DatePreset } from '../date-range';

/**
 * Links that set a page's date range to today, the last 7 or the last 30 days — whole UTC days,
 * as every date filter counts them (said next to the links, since "today" differs by time zone).
 */
export function DatePresets({
  hrefFor,
  now = new Date(),
}: {
  hrefFor: (preset: DatePreset) => string;
  now?: Date;
}) {
  return (
    <nav aria-label="Date range presets" className="date-presets">
      <span className="muted">Quick range (UTC days):</span>
      <ul>
        {datePresets(now).map((preset) => (
          <li key={preset.label}>
            <a href={hrefFor(preset)}>{preset.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
