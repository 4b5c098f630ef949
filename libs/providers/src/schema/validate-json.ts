/** One reason a JSON value failed validation against the caller's schema. */
export interface ValidationIssue {
  /** JSON pointer into the value, e.g. `/items/2/price`. */
  path: string;
  keyword: string;
  message: string;
}
