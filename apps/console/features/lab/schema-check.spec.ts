import { describe, expect, it } from 'vitest';
import { checkSchemaText } from './schema-check';

describe('the schema editor’s live check', () => {
  it('accepts a JSON Schema, whichever dialect it names', () => {
    for (const dialect of [
      undefined,
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      const schema = {
        ...(dialect && { $schema: dialect }),
        type: 'object',
        properties: { title: { type: 'string' } },
      };
      expect(checkSchemaText(JSON.stringify(schema))).toEqual({ status: 'valid', schema });
    }
  });

  it.each([
    ['', 'empty', 'Write a JSON Schema'],
    ['   ', 'empty', 'Write a JSON Schema'],
    ['{"type": "object",}', 'invalid-json', 'Not JSON:'],
    ['{"type": ', 'invalid-json', 'Not JSON:'],
    ['[]', 'not-an-object', 'JSON object'],
    ['"string"', 'not-an-object', 'JSON object'],
    ['null', 'not-an-object', 'JSON object'],
    ['{"type": "text"}', 'invalid-schema', 'at /type'],
    ['{"properties": {"a": {"minLength": -1}}}', 'invalid-schema', 'at /properties/a/minLength'],
    ['{"required": "a"}', 'invalid-schema', 'at /required'],
  ])('names the problem of %j', (text, status, message) => {
    const check = checkSchemaText(text);
    expect(check.status).toBe(status);
    expect(check.status === 'valid' ? '' : check.message).toContain(message);
  });
});
