/** A pass rate (0–1) as a percentage with one decimal; "—" when nothing was judged. */
export function formatPassRate(rate: number | null): string {
  if (rate === null) return '—';
  return `${(Math.round(rate * 1000) / 10).toFixed(1)} %`;
}

/** Milliseconds as people read latency: "840 ms", "2.3 s"; "—" when unknown. */
export function formatLatency(milliseconds: number | null): string {
  if (milliseconds === null) return '—';
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
