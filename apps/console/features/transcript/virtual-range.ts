/** The first index whose row ends after `pixel` (binary search over ascending row starts). */
function firstRowEndingAfter(starts: readonly number[], pixel: number): number {
  let low = 0;
  let high = starts.length - 1; // number of rows
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((starts[middle + 1] ?? 0) > pixel) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Which rows `[first, last)` overlap the pixel range `[from, to)`, given each row's start and, last,
 * the total height (`starts.length` is the row count plus one). At least one row when there are rows.
 */
export function visibleRange(
  starts: readonly number[],
  from: number,
  to: number,
): { first: number; last: number } {
  const rowCount = starts.length - 1;
  if (rowCount <= 0) return { first: 0, last: 0 };
  const first = Math.min(firstRowEndingAfter(starts, from), rowCount - 1);
  let last = first + 1;
  while (last < rowCount && (starts[last] ?? 0) < to) last += 1;
  return { first, last };
}
