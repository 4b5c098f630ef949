'use client';

import { useEffect, useState } from 'react';
import { firstRowCount, nextRowCount } from '../row-slices';

/**
 * Runs `work` once the next frame is drawn and the browser is idle (or soon regardless): the slice
 * before has been laid out on its own, so two slices never share a frame's layout. Where idle
 * callbacks are missing (Safari), a timeout after the frame does the same.
 */
function afterNextFrame(work: () => void): () => void {
  let cancelIdle = () => {};
  const frame = window.requestAnimationFrame(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(work, { timeout: 200 });
      cancelIdle = () => window.cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(work, 0);
      cancelIdle = () => window.clearTimeout(handle);
    }
  });
  return () => {
    window.cancelAnimationFrame(frame);
    cancelIdle();
  };
}

/**
 * How many of `total` rows to render: the first screen at once (on the server and while hydrating),
 * then a slice more per idle moment until all are there. Each slice is its own task, so the page
 * answers input between them; rows that stop existing (a filter) are simply not counted.
 */
export function useRowsInSlices(total: number): number {
  const [shown, setShown] = useState(() => firstRowCount(total));
  useEffect(() => {
    if (shown >= total) return;
    return afterNextFrame(() => setShown((current) => nextRowCount(current, total)));
  }, [shown, total]);
  return Math.min(shown, total);
}
