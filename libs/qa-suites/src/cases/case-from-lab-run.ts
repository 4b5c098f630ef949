import { suiteCaseSchema, type SuiteCase } from '@agentdesk/api-contract';

/** The parts of a lab run a case is made from. */
export interface LabRunForCase {
  name: string;
  schema: object;
  prompt: string;
  systemPrompt: string | null;
}

const DESCRIPTION_CHARACTERS = 2_000;

/**
 * A suite case from a lab run: its prompt, system prompt and schema, described by the run's
 * name, with no assertions yet (the schema is always checked). Throws the contract's ZodError when
 * `caseId` is not a valid case id or the run does not fit a case.
 */
export function caseFromLabRun(run: LabRunForCase, caseId: string): SuiteCase {
  const description = `From the lab run "${run.name}"`.slice(0, DESCRIPTION_CHARACTERS);
  return suiteCaseSchema.parse({
    id: caseId,
    description,
    ...(run.systemPrompt === null || run.systemPrompt === '' ? {} : { systemPrompt: run.systemPrompt }),
    prompt: run.prompt,
    schema: run.schema,
    assertions: [],
  });
}
