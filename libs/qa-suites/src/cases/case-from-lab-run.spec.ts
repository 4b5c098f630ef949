import { describe, expect, it } from 'vitest';
import { caseFromLabRun } from './case-from-lab-run';

describe('caseFromLabRun', () => {
  const run = {
    name: 'invoice test',
    schema: { type: 'object', properties: { total: { type: 'number' } } },
    prompt: 'Extract.',
    systemPrompt: 'Be exact.',
  };

  it('makes a case of the run’s prompts and schema, with no assertions yet', () => {
    expect(caseFromLabRun(run, 'invoice-7')).toEqual({
      id: 'invoice-7',
      description: 'From the lab run "invoice test"',
      systemPrompt: 'Be exact.',
      prompt: 'Extract.',
      schema: run.schema,
      assertions: [],
    });
  });

  it('leaves out an absent system prompt', () => {
    expect(caseFromLabRun({ ...run, systemPrompt: null }, 'a')).not.toHaveProperty('systemPrompt');
  });

  it('refuses an invalid case id', () => {
    expect(() => caseFromLabRun(run, 'not a valid id')).toThrow(/case id/);
  });
});
