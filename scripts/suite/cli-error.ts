/**
 * Why the suite command stopped without a verdict — all exit with code 2:
 * `usage` (bad arguments), `connection` (the API cannot be reached), `http` (the API refused or
 * failed), `answer` (the API answered something the contract does not describe), `run` (the run
 * was cancelled, so there is nothing to judge).
 */
export type CliErrorKind = 'usage' | 'connection' | 'http' | 'answer' | 'run';

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly kind: CliErrorKind,
    message: string,
    /** The HTTP status, for `http` errors. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Exit codes: 0 every check held, 1 a regression or a pass rate below the floor, 2 no verdict. */
export const EXIT_OK = 0;
export const EXIT_VERDICT_FAILED = 1;
export const EXIT_NO_VERDICT = 2;
