import type { SuiteDefinition } from '@agentdesk/api-contract';
import { schemaLimitProblem, validateJson } from '@agentdesk/providers';

/** One problem of a definition the file format itself cannot see, at a path like `cases[3].schema`. */
export interface DefinitionProblem {
  readonly path: string;
  readonly message: string;
}

function regexProblem(pattern: string, flags: string | undefined): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (error) {
    return `is not a regular expression JavaScript accepts: ${(error as Error).message}`;
  }
}

/**
 * What would make every run of a case fail the same way, refused before a version is saved: a case
 * schema beyond the providers' limits or one Ajv cannot compile (as the lab refuses it), a `matches`
 * pattern that is not a regular expression.
 */
export function definitionProblems(definition: SuiteDefinition): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  definition.cases.forEach((suiteCase, caseIndex) => {
    const schemaProblem =
      schemaLimitProblem(suiteCase.schema) ??
      validateJson(suiteCase.schema, null).errors.find((issue) => issue.keyword === 'schema')?.message;
    if (schemaProblem !== undefined)
      problems.push({ path: `cases[${caseIndex}].schema`, message: schemaProblem });
    suiteCase.assertions.forEach((assertion, assertionIndex) => {
      if (assertion.kind !== 'matches') return;
      const problem = regexProblem(assertion.pattern, assertion.flags);
      if (problem !== undefined)
        problems.push({
          path: `cases[${caseIndex}].assertions[${assertionIndex}].pattern`,
          message: problem,
        });
    });
  });
  return problems;
}
