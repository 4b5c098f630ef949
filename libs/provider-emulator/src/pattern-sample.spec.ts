import { describe, expect, it } from 'vitest';
import { sampleFromPattern } from './pattern-sample';

describe('sampleFromPattern', () => {
  it.each([
    '^[a-z]+$',
    '^\\d{3}-\\d{2}-\\d{4}$',
    '^[A-Z][a-z]*$',
    '^(?:https?)://[\\w.-]+\\.[a-z]{2,}$',
    "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
    '^[^@\\s]+@[^@\\s]+$',
    '^#[0-9a-fA-F]{6}$',
    '^(red|green|blue)$',
    '^\\p{Lu}\\p{Ll}+$',
    '^\\u0041{2}$',
    'abc',
  ])('produces a string matching %s', (pattern) => {
    const sample = sampleFromPattern(pattern);
    expect(sample).toBeDefined();
    expect(new RegExp(pattern, 'u').test(sample!)).toBe(true);
  });

  it('returns undefined for an invalid pattern', () => {
    expect(sampleFromPattern('([')).toBeUndefined();
  });
});
