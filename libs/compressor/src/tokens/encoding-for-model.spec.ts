import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_SAFETY_FACTOR,
  GEMINI_SAFETY_FACTOR,
  UNKNOWN_MODEL_SAFETY_FACTOR,
  tokenizerForModel,
} from './encoding-for-model';

describe('tokenizerForModel', () => {
  it.each([
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4.1',
    'gpt-4.1-nano',
    'gpt-4.5-preview',
    'gpt-5',
    'gpt-5-mini',
    'o1',
    'o3-mini',
    'o4-mini',
    'chatgpt-4o-latest',
  ])('uses o200k exactly for %s', (model) => {
    expect(tokenizerForModel(model)).toEqual({ encoding: 'o200k_base', safetyFactor: 1, approximate: false });
  });

  it.each(['gpt-4', 'gpt-4-turbo', 'gpt-4-0613', 'gpt-3.5-turbo', 'GPT-3.5-turbo-16k'])(
    'uses cl100k exactly for %s',
    (model) => {
      expect(tokenizerForModel(model)).toEqual({
        encoding: 'cl100k_base',
        safetyFactor: 1,
        approximate: false,
      });
    },
  );

  it('approximates Anthropic and Gemini with o200k and a safety factor above 1', () => {
    expect(tokenizerForModel('claude-sonnet-4-5')).toEqual({
      encoding: 'o200k_base',
      safetyFactor: ANTHROPIC_SAFETY_FACTOR,
      approximate: true,
    });
    expect(tokenizerForModel('gemini-2.5-flash')).toEqual({
      encoding: 'o200k_base',
      safetyFactor: GEMINI_SAFETY_FACTOR,
      approximate: true,
    });
    expect(ANTHROPIC_SAFETY_FACTOR).toBeGreaterThan(1);
    expect(GEMINI_SAFETY_FACTOR).toBeGreaterThan(1);
  });

  it('is conservative for an unknown model', () => {
    expect(tokenizerForModel('my-local-llama')).toEqual({
      encoding: 'o200k_base',
      safetyFactor: UNKNOWN_MODEL_SAFETY_FACTOR,
      approximate: true,
    });
  });
});
