/** CPU and wall-clock samples of one benchmark variant, accumulated over interleaved batches. */
export interface VariantStats {
  name: string;
  requests: number;
  cpuMicroseconds: number;
  latenciesMs: number[];
  /** CPU µs per request of each batch, for per-round comparisons that bursts of load cannot skew. */
  batchCpuPerRequest: number[];
}

export function newStats(name: string): VariantStats {
  return { name, requests: 0, cpuMicroseconds: 0, latenciesMs: [], batchCpuPerRequest: [] };
}

/** Empties the samples (after a warm-up). */
export function resetStats(stats: VariantStats): void {
  stats.requests = 0;
  stats.cpuMicroseconds = 0;
  stats.latenciesMs.length = 0;
  stats.batchCpuPerRequest.length = 0;
}

/**
 * The median over rounds of `candidate / baseline` CPU per request, pairing batches of the same
 * round: robust to another process stealing the CPU during a few batches.
 */
export function medianCpuRatio(candidate: VariantStats, baseline: VariantStats): number {
  const ratios = candidate.batchCpuPerRequest.map(
    (value, index) => value / baseline.batchCpuPerRequest[index]!,
  );
  return percentile(ratios, 0.5);
}

/** Runs `batch` sequential calls, adding their process CPU time and per-call latencies to `stats`. */
export async function measureBatch(
  stats: VariantStats,
  batch: number,
  call: () => Promise<unknown>,
): Promise<void> {
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < batch; index++) {
    const started = performance.now();
    await call();
    stats.latenciesMs.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  stats.cpuMicroseconds += cpu.user + cpu.system;
  stats.requests += batch;
  stats.batchCpuPerRequest.push((cpu.user + cpu.system) / batch);
}

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export const cpuPerRequest = (stats: VariantStats) => stats.cpuMicroseconds / stats.requests;

/**
 * Interleaves the variants round by round (in alternating order) so drift in machine load hits
 * every variant alike.
 */
export async function interleave(
  variants: Array<{ stats: VariantStats; call: () => Promise<unknown> }>,
  rounds: number,
  batch: number,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) await measureBatch(variant.stats, batch, variant.call);
  }
}
