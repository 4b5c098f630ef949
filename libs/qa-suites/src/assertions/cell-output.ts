/** What one target answered for one case, as the assertions see it (the run engine builds it from the lab's result). */
export interface CellOutput {
  status: 'ok' | 'error';
  /** The parsed answer (null when it did not parse). */
  json: unknown;
  /** The answer against the case's schema; null when it was not validated. A `json` keyword error: the answer is not JSON. */
  validation: { valid: boolean; errors: { path: string; keyword: string; message: string }[] } | null;
  latencyMs: number;
  /** Micro-dollars; null when the model has no price. */
  costMicros: number | null;
  /** Why the call failed, when `status` is 'error'. */
  errorMessage?: string;
}

/** Whether the answer could not be parsed as JSON at all (the providers' validation says so with keyword `json`). */
export function answerIsNotJson(output: CellOutput): boolean {
  return output.validation?.errors.some((error) => error.keyword === 'json') ?? false;
}
