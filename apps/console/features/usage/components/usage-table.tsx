import type { UsageReportJson } from '@agentdesk/api-contract';
import { CostText } from '../../cost';
import { visibleText } from '../../visible-text';
import { groupingLabels, keyLabel, type KeyNames } from '../usage-view';

const tokenFormat = new Intl.NumberFormat('en');

/** Every bucket of the report as a table: the chart's accessible fallback and its exact numbers. */
export function UsageTable({ report, names }: { report: UsageReportJson; names: KeyNames }) {
  const label = groupingLabels[report.groupBy];
  return (
    <div className="table-scroll">
      <table className="usage-table">
        <caption>Tokens per UTC day and {label.toLowerCase()}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{label}</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">Thinking</th>
            <th scope="col">Cached</th>
            <th scope="col">Total</th>
            <th scope="col">Model calls</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {report.items.map((item) => (
            <tr key={`${item.day} ${String(item.key)}`}>
              <td data-label="Day">
                <time dateTime={item.day}>{item.day}</time>
              </td>
              <td
                data-label={label}
                title={item.key !== null && names.has(item.key) ? visibleText(item.key) : undefined}
              >
                {keyLabel(report.groupBy, item.key, names)}
              </td>
              <td className="number" data-label="Input">
                {tokenFormat.format(item.inputTokens)}
              </td>
              <td className="number" data-label="Output">
                {tokenFormat.format(item.outputTokens)}
              </td>
              <td className="number" data-label="Thinking">
                {tokenFormat.format(item.thinkingTokens)}
              </td>
              <td className="number" data-label="Cached">
                {tokenFormat.format(item.cachedTokens)}
              </td>
              <td className="number" data-label="Total">
                {tokenFormat.format(item.totalTokens)}
              </td>
              <td className="number" data-label="Model calls">
                {tokenFormat.format(item.modelCalls)}
              </td>
              <td className="number" data-label="Cost">
                <CostText cost={item} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Per-key totals over the range, largest first, with the grand total. */
export function UsageTotals({ report }: { report: UsageReportJson }) {
  const grand = report.totals.reduce((sum, total) => sum + total.totalTokens, 0);
  const calls = report.totals.reduce((sum, total) => sum + total.modelCalls, 0);
  const pricedCostMicros = report.totals.reduce((sum, total) => sum + total.pricedCostMicros, 0);
  const unpricedCalls = report.totals.reduce((sum, total) => sum + total.unpricedCalls, 0);
  return (
    <section aria-label="Totals" className="usage-totals">
      <p>
        <strong>{tokenFormat.format(grand)}</strong> tokens in <strong>{tokenFormat.format(calls)}</strong>{' '}
        model calls, {report.from} to {report.to} (UTC), costing{' '}
        <strong>
          <CostText
            cost={{
              costMicros: unpricedCalls === 0 ? pricedCostMicros : null,
              pricedCostMicros,
              unpricedCalls,
            }}
          />
        </strong>
        .
        {unpricedCalls > 0 &&
          ` ${tokenFormat.format(unpricedCalls)} of them used a model without a price: their cost is unknown.`}
      </p>
    </section>
  );
}
