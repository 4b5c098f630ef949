'use client';

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { visibleRange } from '../virtual-range';

export interface VirtualListProps<Row> {
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** A first guess of a row's height until it has been measured. */
  estimateHeight: (row: Row) => number;
  renderRow: (row: Row) => ReactNode;
  /** The key of a row to bring to the top of the window (a new object each time it is asked for). */
  scrollTarget?: { key: string } | null;
  /** Pixels rendered beyond each edge of the window, so fast scrolling shows no blank. */
  overscanPixels?: number;
}

// Before the browser reports its window (and on the server) the list renders as for a tall window.
const DEFAULT_VIEWPORT = { top: 0, height: 1_200 };

// useLayoutEffect warns on the server; the measurement only matters in the browser.
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * A list that renders only the rows near the window's scroll position (the page scrolls, not an inner
 * box, so keyboard and find-in-page scrolling behave as usual). Rows are measured once rendered; the
 * rest keep their estimate, so the list's height is right for what was seen and close for the rest.
 */
export function VirtualList<Row>({
  rows,
  rowKey,
  estimateHeight,
  renderRow,
  scrollTarget = null,
  overscanPixels = 800,
}: VirtualListProps<Row>) {
  const containerRef = useRef<HTMLDivElement>(null);
  const measured = useRef(new Map<string, number>());
  const [measuredVersion, setMeasuredVersion] = useState(0);
  const [viewport, setViewport] = useState(DEFAULT_VIEWPORT);

  const offsets = useMemo(() => {
    void measuredVersion; // recomputed whenever a measurement changed
    const starts = new Array<number>(rows.length + 1);
    starts[0] = 0;
    rows.forEach((row, index) => {
      starts[index + 1] = (starts[index] ?? 0) + (measured.current.get(rowKey(row)) ?? estimateHeight(row));
    });
    return starts;
  }, [rows, rowKey, estimateHeight, measuredVersion]);

  const readViewport = useCallback(() => {
    const container = containerRef.current;
    if (container === null) return;
    const top = -container.getBoundingClientRect().top;
    setViewport((previous) =>
      previous.top === top && previous.height === window.innerHeight
        ? previous
        : { top, height: window.innerHeight },
    );
  }, []);

  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(readViewport);
    };
    readViewport();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, [readViewport]);

  // One observer for every rendered row: a row that grows (a disclosure opened) moves the rows below.
  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    let frame = 0;
    observer.current = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const key = (entry.target as HTMLElement).dataset['rowKey'];
        const height = (entry.target as HTMLElement).offsetHeight;
        if (key !== undefined && height > 0 && measured.current.get(key) !== height) {
          measured.current.set(key, height);
          changed = true;
        }
      }
      if (changed) {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => setMeasuredVersion((version) => version + 1));
      }
    });
    return () => {
      cancelAnimationFrame(frame);
      observer.current?.disconnect();
    };
  }, []);
  const observeRow = useCallback((element: HTMLDivElement | null) => {
    if (element === null) return;
    observer.current?.observe(element);
    return () => observer.current?.unobserve(element);
  }, []);

  // Bring a row to the top: jump to its computed offset, then (once rendered and measured) align it exactly.
  const pendingTarget = useRef<{ key: string; attempts: number } | null>(null);
  const seenTarget = useRef<{ key: string } | null>(null);
  useBrowserLayoutEffect(() => {
    if (scrollTarget !== seenTarget.current) {
      seenTarget.current = scrollTarget;
      pendingTarget.current = scrollTarget === null ? null : { key: scrollTarget.key, attempts: 0 };
    }
    const target = pendingTarget.current;
    const container = containerRef.current;
    if (target === null || container === null) return;
    const index = rows.findIndex((row) => rowKey(row) === target.key);
    if (index === -1) return;
    const element = container.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(target.key)}"]`);
    if (element !== null && target.attempts > 0) {
      element.scrollIntoView({ block: 'start' });
      // Done once it sits at the top (rows above it measured); never fight the reader's own scrolling after.
      const aligned = Math.abs(element.getBoundingClientRect().top) < 2;
      pendingTarget.current =
        aligned || target.attempts > 4 ? null : { ...target, attempts: target.attempts + 1 };
      return;
    }
    const containerTop = container.getBoundingClientRect().top + window.scrollY;
    window.scrollTo({ top: containerTop + (offsets[index] ?? 0) });
    pendingTarget.current = { ...target, attempts: target.attempts + 1 };
    readViewport();
  });

  const total = offsets[rows.length] ?? 0;
  const { first, last } = visibleRange(
    offsets,
    viewport.top - overscanPixels,
    viewport.top + viewport.height + overscanPixels,
  );
  const shown = rows.slice(first, last);
  return (
    <div ref={containerRef} className="virtual-list" style={{ height: total }}>
      <div className="virtual-list-window" style={{ transform: `translateY(${offsets[first] ?? 0}px)` }}>
        {shown.map((row) => {
          const key = rowKey(row);
          return (
            <div key={key} data-row-key={key} ref={observeRow}>
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
