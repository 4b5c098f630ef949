/** Why a cell's work was stopped before it finished. */
export type CellStopReason =
  /** The run was cancelled: the cell finishes as cancelled. */
  | 'cancelled'
  /** Another worker holds the cell now (the lease passed): this one writes nothing. */
  | 'lease-lost'
  /** This replica is shutting down: the claim is released for another worker (or the next start). */
  | 'shutdown';

/** The reason an aborted cell signal carries. */
export class CellStop extends Error {
  override readonly name = 'CellStop';
  constructor(readonly reason: CellStopReason) {
    super(`the cell was stopped: ${reason}`);
  }
}

/** Why `signal` was aborted, when it was aborted as a cell stop. */
export function cellStopOf(signal: AbortSignal): CellStopReason | undefined {
  return signal.aborted && signal.reason instanceof CellStop ? signal.reason.reason : undefined;
}
