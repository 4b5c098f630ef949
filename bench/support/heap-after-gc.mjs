// Preloaded into a benchmarked server (`node --expose-gc --import <this file> …`): on SIGUSR2 it runs
// a full garbage collection and prints the heap still in use, so a benchmark can tell memory that is
// retained from garbage V8 has not collected yet (which resident memory alone cannot).
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  process.stderr.write(`heap-after-gc ${process.memoryUsage().heapUsed}\n`);
});
