/** Milliseconds since the epoch. Injected so tests control time (date filters, ties). */
export type Clock = () => number;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();
