import type { PassRateJson, RunComparisonJson, SuiteRunJson } from '@agentdesk/api-contract';

/** Overall pass rate over every target's judged cells; null when nothing was judged. */
export function overallPassRate(byTarget: readonly PassRateJson[]): {
  passed: number;
  judged: number;
  rate: number | null;
} {
  const passed = byTarget.reduce((sum, target) => sum + target.passed, 0);
  const judged = byTarget.reduce((sum, target) => sum + target.judged, 0);
  return { passed, judged, rate: judged === 0 ? null : passed / judged };
}

export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}

function formatCost(costMicros: number | null): string {
  if (costMicros === null) return '—';
  const dollars = costMicros / 1_000_000;
  return dollars < 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}

function formatMs(ms: number | null): string {
  return ms === null ? '—' : `${Math.round(ms)} ms`;
}

/** Columns padded to their widest cell; numbers right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The per-target table: passed/judged, rate, cost, p50/p95 latency, and the overall line. */
export function summaryTable(run: SuiteRunJson): string {
  const rows = run.byTarget.map((target) => [
    target.key,
    `${target.passed}/${target.judged}`,
    formatRate(target.rate),
    formatCost(target.costMicros),
    formatMs(target.latencyP50Ms),
    formatMs(target.latencyP95Ms),
  ]);
  const overall = overallPassRate(run.byTarget);
  const costs = run.byTarget
    .map((target) => target.costMicros)
    .filter((cost): cost is number => cost !== null);
  rows.push([
    'all targets',
    `${overall.passed}/${overall.judged}`,
    formatRate(overall.rate),
    formatCost(costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0)),
    '',
    '',
  ]);
  return table(['target', 'passed', 'rate', 'cost', 'p50', 'p95'], rows);
}

/** The regressions of a comparison, one line each (empty when none). */
export function regressionLines(comparison: RunComparisonJson): string[] {
  return comparison.cells
    .filter((cell) => cell.change === 'regression')
    .map((cell) => `  ${cell.caseId} on ${cell.target}: ${cell.before ?? '—'} → ${cell.after ?? '—'}`);
}
