import type { UsageGrouping } from '@agentdesk/api-contract';
import type { ChartLayout } from '../chart-layout';
import { groupingLabels, keyLabel, type KeyNames } from '../usage-view';

const width = 720;
const height = 260;
const margin = { top: 12, right: 8, bottom: 28, left: 64 };
const tokenFormat = new Intl.NumberFormat('en');

function seriesName(groupBy: UsageGrouping, layout: ChartLayout, index: number, names: KeyNames): string {
  const series = layout.series[index];
  if (series === undefined) return '';
  return series.isOther ? 'other' : keyLabel(groupBy, series.key, names);
}

/**
 * Tokens per day as stacked bars, drawn as inline SVG (no chart library). Screen readers get the
 * title and a summary in `desc`; every number is also in the table below the chart.
 */
export function UsageChart({
  layout,
  groupBy,
  names,
}: {
  layout: ChartLayout;
  groupBy: UsageGrouping;
  names: KeyNames;
}) {
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, layout.days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const scale = layout.maximum === 0 ? 0 : plotHeight / layout.maximum;
  const first = layout.days[0]?.day ?? '';
  const last = layout.days.at(-1)?.day ?? '';
  const busiest = layout.days.reduce((best, day) => (day.totalTokens > best.totalTokens ? day : best), {
    day: first,
    totalTokens: 0,
  });
  const labelEvery = Math.ceil(layout.days.length / 8);
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="usage-chart-title usage-chart-desc">
        <title id="usage-chart-title">{`Tokens per day by ${groupingLabels[groupBy].toLowerCase()}, ${first} to ${last}`}</title>
        <desc id="usage-chart-desc">
          {layout.maximum === 0
            ? 'No model call reported usage in this range.'
            : `Stacked bars, one per UTC day, one colour per ${groupingLabels[groupBy].toLowerCase()}. The busiest day was ${busiest.day} with ${tokenFormat.format(busiest.totalTokens)} tokens. The table below lists every value.`}
        </desc>
        <line
          x1={margin.left}
          x2={width - margin.right}
          y1={margin.top + plotHeight}
          y2={margin.top + plotHeight}
          className="usage-axis"
        />
        <text x={margin.left - 6} y={margin.top + 10} textAnchor="end" className="usage-tick">
          {tokenFormat.format(layout.maximum)}
        </text>
        <text x={margin.left - 6} y={margin.top + plotHeight} textAnchor="end" className="usage-tick">
          0
        </text>
        {layout.days.map((day, dayIndex) => {
          const x = margin.left + dayIndex * slot + (slot - barWidth) / 2;
          let y = margin.top + plotHeight;
          return (
            <g key={day.day}>
              {day.segments.map((segment) => {
                const segmentHeight = segment.tokens * scale;
                y -= segmentHeight;
                return (
                  <rect
                    key={segment.seriesIndex}
                    x={x}
                    y={y}
                    width={barWidth}
                    height={segmentHeight}
                    fill={layout.series[segment.seriesIndex]?.colour}
                  >
                    <title>{`${day.day} · ${seriesName(groupBy, layout, segment.seriesIndex, names)}: ${tokenFormat.format(segment.tokens)} tokens`}</title>
                  </rect>
                );
              })}
              {/* Counted from the end, so the newest day (usually today) is always labelled. */}
              {(layout.days.length - 1 - dayIndex) % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={height - 8} textAnchor="middle" className="usage-tick">
                  {day.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="usage-legend" aria-label="Legend">
          {layout.series.map((series, index) => (
            <li key={series.isOther ? 'other' : String(series.key)}>
              <span className="usage-swatch" style={{ background: series.colour }} aria-hidden="true" />
              {seriesName(groupBy, layout, index, names)}{' '}
              <span className="muted">{tokenFormat.format(series.totalTokens)} tokens</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
