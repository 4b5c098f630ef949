import type { z } from 'zod';
import { formatIssuePath, type FileIssue } from './file-issue';
import type { SourceLines } from './source-lines';

/** zod's words for a missing key ("expected string, received undefined") are not what a file's author needs. */
function readableMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return 'is required';
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    const options = 'options' in issue && Array.isArray(issue.options) ? issue.options.map(String) : [];
    return options.length > 0 ? `must be one of ${options.join(', ')}` : issue.message;
  }
  return issue.message;
}

/** Turns zod's issues into file issues, each placed on its line when the file's text can tell. */
export function issuesFromZod(
  issues: readonly z.core.$ZodIssue[],
  lines: SourceLines | undefined,
): FileIssue[] {
  return issues.map((issue) => {
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    const line = lines?.lineOf(path);
    return {
      path: formatIssuePath(path),
      message: readableMessage(issue),
      ...(line === undefined ? {} : { line }),
    };
  });
}
