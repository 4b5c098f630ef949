import type { UsageGrouping } from '@agentdesk/api-contract';
import { formatMicroDollars } from '../../cost';
import { chartFrames, isDayLabelled, type ChartFrame } from '../chart-frame';
import type { ChartLayout, ChartMeasure } from '../chart-layout';
import { groupingLabels, keyLabel, type KeyNames } from '../usage-view';

const tokenFormat = new Intl.NumberFormat('en');
const compactFormat = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 });

/** A value of the chart as text: tokens, or dollars for the cost measure. */
function formatValue(value: number, measure: ChartMeasure): string {
  return measure === 'cost' ? formatMicroDollars(value) : `${tokenFormat.format(value)} tokens`;
}

/** A tick label: the bare number of tokens, or dollars; compact (`1.2M`, `$3.4K`) in a narrow frame. */
function formatTick(value: number, measure: ChartMeasure, compact: boolean): string {
  if (!compact) return measure === 'cost' ? formatMicroDollars(value) : tokenFormat.format(value);
  return measure === 'cost' ? `$${compactFormat.format(value / 1_000_000)}` : compactFormat.format(value);
}

function seriesName(groupBy: UsageGrouping, layout: ChartLayout, index: number, names: KeyNames): string {
  const series = layout.series[index];
  if (series === undefined) return '';
  return series.isOther ? 'other' : keyLabel(groupBy, series.key, names);
}

interface ChartProps {
  layout: ChartLayout;
  groupBy: UsageGrouping;
  names: KeyNames;
  measure?: ChartMeasure;
}

/** The bars in one frame (see `chart-frame.ts`: CSS shows the wide or the narrow one). */
function ChartDrawing({
  frame,
  layout,
  groupBy,
  names,
  measure = 'tokens',
}: ChartProps & { frame: ChartFrame }) {
  const { width, height, margin } = frame;
  const titleId = `usage-chart-title-${frame.name}`;
  const descriptionId = `usage-chart-desc-${frame.name}`;
  const what = measure === 'cost' ? 'Cost' : 'Tokens';
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
  const title = `${what} per day by ${groupingLabels[groupBy].toLowerCase()}, ${first} to ${last}`;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-labelledby={`${titleId} ${descriptionId}`}
      className={`usage-chart-${frame.name}`}
    >
      <title id={titleId}>{title}</title>
      <desc id={descriptionId}>
        {layout.maximum === 0
          ? 'No model call reported usage in this range.'
          : `Stacked bars, one per UTC day, one colour per ${groupingLabels[groupBy].toLowerCase()}. The busiest day was ${busiest.day} with ${formatValue(busiest.totalTokens, measure)}.${measure === 'cost' ? ' Calls without a price are not in the bars (their cost is unknown).' : ''} The table below lists every value.`}
      </desc>
      <line
        x1={margin.left}
        x2={width - margin.right}
        y1={margin.top + plotHeight}
        y2={margin.top + plotHeight}
        className="usage-axis"
      />
      <text x={margin.left - 6} y={margin.top + 10} textAnchor="end" className="usage-tick">
        {formatTick(layout.maximum, measure, frame.compactTicks)}
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
                  <title>{`${day.day} · ${seriesName(groupBy, layout, segment.seriesIndex, names)}: ${formatValue(segment.tokens, measure)}`}</title>
                </rect>
              );
            })}
            {/* Counted from the end, so the newest day (usually today) is always labelled. */}
            {isDayLabelled(dayIndex, layout.days.length, frame.maxDayLabels) && (
              <text x={x + barWidth / 2} y={height - 8} textAnchor="middle" className="usage-tick">
                {day.day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/**
 * Tokens (or cost) per day as stacked bars, drawn as inline SVG (no chart library), in the frame
 * that fits the screen. Screen readers get the title and a summary in `desc`; every number is also
 * in the table below the chart.
 */
export function UsageChart(props: ChartProps) {
  const { layout, groupBy, names, measure = 'tokens' } = props;
  return (
    <figure className="usage-chart">
      {chartFrames.map((frame) => (
        <ChartDrawing key={frame.name} frame={frame} {...props} />
      ))}
      <figcaption>
        <ul className="usage-legend" aria-label="Legend">
          {layout.series.map((series, index) => (
            <li key={series.isOther ? 'other' : String(series.key)}>
              <span className="usage-swatch" style={{ background: series.colour }} aria-hidden="true" />
              {seriesName(groupBy, layout, index, names)}{' '}
              <span className="muted">{formatValue(series.totalTokens, measure)}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
