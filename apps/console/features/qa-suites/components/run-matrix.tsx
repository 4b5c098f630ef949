'use client';

import type { CaseChange } from '@agentdesk/api-contract';
import { memo, useMemo } from 'react';
import { useRowsInSlices } from '../hooks/use-rows-in-slices';
import { cellHref, cellLabel, cellTone, changeMark, type MatrixRow } from '../matrix-model';

/** A comparison's change per cell, keyed `caseIndex:targetIndex` (serializable from the server). */
export type CellChanges = Readonly<Record<string, CaseChange>>;

/** What is opened under the matrix: a cell, or a case across its targets. */
export interface OpenedCell {
  caseId: string;
  targetIndex: number | undefined;
}

interface RowProps {
  row: MatrixRow;
  changes: readonly (CaseChange | undefined)[] | undefined;
  hrefBase: string;
  /** This row's opened target: a number, `case` for the whole row, or null when nothing here is open. */
  opened: number | 'case' | null;
}

/**
 * One case's row: plain links, no component per cell, so a 1,000-cell matrix stays one quick render;
 * memoized, so a batch of finished cells re-renders only the rows it touched.
 */
const MatrixRowView = memo(function MatrixRowView({ row, changes, hrefBase, opened }: RowProps) {
  return (
    <tr>
      <th scope="row">
        <a
          href={cellHref(hrefBase, row.caseId)}
          aria-current={opened === 'case' ? 'true' : undefined}
          className="mono"
        >
          {row.caseId}
        </a>
        {row.description !== null && <span className="muted case-description">{row.description}</span>}
      </th>
      {row.cells.map((cell, targetIndex) => {
        const mark = changeMark(changes?.[targetIndex]);
        return (
          <td
            key={targetIndex}
            className={mark === null ? undefined : `changed change-${changes?.[targetIndex]}`}
          >
            {cell === undefined ? (
              <span className={cellTone(undefined)}>{cellLabel(cell)}</span>
            ) : (
              <a
                className={cellTone(cell.status)}
                href={cellHref(hrefBase, row.caseId, targetIndex)}
                aria-current={opened === targetIndex ? 'true' : undefined}
              >
                {cellLabel(cell)}
                {mark !== null && <span className="change-mark"> {mark}</span>}
              </a>
            )}
          </td>
        );
      })}
    </tr>
  );
});

/**
 * The run's matrix: a row per case, a column per target, each cell's outcome in words and colour.
 * A long run's rows arrive in slices after the first screen (row-slices.ts); the table says it is
 * busy until all are there. Its columns are fixed (qa-suites.css), so a slice lays out only its rows.
 */
export function RunMatrix({
  rows,
  targetLabels,
  changes,
  shownCaseIds,
  hrefBase,
  opened,
}: {
  rows: readonly MatrixRow[];
  targetLabels: readonly string[];
  changes: CellChanges | null;
  shownCaseIds: readonly string[] | null;
  hrefBase: string;
  opened: OpenedCell | null;
}) {
  // Per row, once per comparison: the rows' props keep their identity while cells stream in.
  const changesByRow = useMemo(() => {
    const byRow = new Map<number, (CaseChange | undefined)[]>();
    if (changes === null) return byRow;
    for (const [key, change] of Object.entries(changes)) {
      const [caseIndex, targetIndex] = key.split(':').map(Number);
      if (caseIndex === undefined || targetIndex === undefined) continue;
      const row = byRow.get(caseIndex) ?? [];
      row[targetIndex] = change;
      byRow.set(caseIndex, row);
    }
    return byRow;
  }, [changes]);
  const shown = useMemo(() => (shownCaseIds === null ? null : new Set(shownCaseIds)), [shownCaseIds]);
  const visibleRows = shown === null ? rows : rows.filter((row) => shown.has(row.caseId));
  const rendered = useRowsInSlices(visibleRows.length);
  return (
    <div className="table-scroll matrix-scroll">
      <table className="run-matrix" aria-busy={rendered < visibleRows.length}>
        <caption className="visually-hidden">Results: a row per case, a column per target</caption>
        <colgroup>
          <col className="case-column" />
          {targetLabels.map((label) => (
            <col key={label} className="target-column" />
          ))}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Case</th>
            {targetLabels.map((label) => (
              <th scope="col" key={label} className="mono">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visibleRows.slice(0, rendered).map((row) => (
            <MatrixRowView
              key={row.caseIndex}
              row={row}
              changes={changesByRow.get(row.caseIndex)}
              hrefBase={hrefBase}
              opened={opened === null || opened.caseId !== row.caseId ? null : (opened.targetIndex ?? 'case')}
            />
          ))}
        </tbody>
      </table>
      {visibleRows.length === 0 && <p className="empty">No case changed.</p>}
    </div>
  );
}
