/**
 * Thrown when the budget cannot hold even the newest call group in its smallest form: the
 * assistant message verbatim plus each result reduced to the short INCOMPLETE notice. The fix is a
 * larger budget (less history, a larger context window), never silent data loss.
 */
export class ScratchpadBudgetError extends Error {
  override readonly name = 'ScratchpadBudgetError';
  readonly code = 'scratchpad-budget-too-small';

  constructor(
    readonly budgetTokens: number,
    readonly requiredTokens: number,
  ) {
    super(
      `the scratchpad budget of ${budgetTokens} tokens cannot hold the newest tool call and its results ` +
        `even when truncated (needs at least ${requiredTokens} tokens)`,
    );
  }
}
