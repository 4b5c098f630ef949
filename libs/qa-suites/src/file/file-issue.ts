/** The two formats a suite file is written in (promptfoo files have their own importer). */
export type SuiteFormat = 'yaml' | 'json';

/** One problem with a suite file: where (a path like `cases[3].assertions[0].pointer`), what, and on which line. */
export interface FileIssue {
  path: string;
  message: string;
  /** 1-based line in the file, when the problem can be placed. */
  line?: number;
}

/** Renders a value path as people write it: `cases[3].assertions[0].pointer`; "" for the whole file. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else {
      const name = String(segment);
      text += /^[A-Za-z_$][\w$-]*$/.test(name)
        ? text === ''
          ? name
          : `.${name}`
        : `[${JSON.stringify(name)}]`;
    }
  }
  return text;
}
