/**
 * A long matrix reaches the page in slices: the server renders (and the browser hydrates) the first
 * screen of rows, and the rest follow after hydration, a slice per task, so no single task renders,
 * hydrates and lays out the whole table (issue 21: a 1,000-cell run with no task over 100 ms).
 */

/**
 * Rows rendered on the server: the matrix's scroll box is 70 % of the window, about 16 rows at 800 px
 * and 30 on a 1,440 px tall screen. Each row more is layout in the page's first frame.
 */
export const FIRST_ROWS = 30;

/**
 * Rows each later slice appends: a React render of them (5–20 ms of script on the bench's busy 2-core
 * machine; 40 rows took up to 50 ms), then, in the next frame, the layout of only what it adds.
 */
export const ROWS_PER_SLICE = 25;

/** How many of `total` rows the first render shows (the server's and the hydrating browser's alike). */
export function firstRowCount(total: number, first: number = FIRST_ROWS): number {
  return Math.max(0, Math.min(total, first));
}

/** How many rows the next slice shows: `perSlice` more, never past `total` (which may have shrunk). */
export function nextRowCount(shown: number, total: number, perSlice: number = ROWS_PER_SLICE): number {
  return Math.max(0, Math.min(total, shown + Math.max(1, perSlice)));
}
