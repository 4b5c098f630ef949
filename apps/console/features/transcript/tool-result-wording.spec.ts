import { describe, expect, it } from 'vitest';
import { storedResultWording, transcriptCopySummary } from './tool-result-wording';

describe('storedResultWording', () => {
  it('names all three numbers when the model saw less than is stored and the page is one part', () => {
    expect(
      storedResultWording({
        modelCharacters: 14_573,
        storedCharacters: 228_955,
        pageStart: 0,
        pageEnd: 8_000,
      }),
    ).toBe(
      'The model saw 14,573 of 228,955 stored characters. Showing characters 1–8,000 of the stored result.',
    );
  });

  it('counts a later page from its first character', () => {
    expect(
      storedResultWording({
        modelCharacters: 100,
        storedCharacters: 50_000,
        pageStart: 20_000,
        pageEnd: 40_000,
      }),
    ).toBe(
      'The model saw 100 of 50,000 stored characters. Showing characters 20,001–40,000 of the stored result.',
    );
  });

  it('says "all" instead of repeating a number that does not differ', () => {
    expect(
      storedResultWording({ modelCharacters: 900, storedCharacters: 900, pageStart: 0, pageEnd: 900 }),
    ).toBe('The model saw all 900 stored characters. Showing all of the stored result.');
  });

  it('does not claim what the model saw when no copy was recorded', () => {
    expect(
      storedResultWording({
        modelCharacters: undefined,
        storedCharacters: 3_000,
        pageStart: 0,
        pageEnd: 3_000,
      }),
    ).toBe('3,000 characters are stored. Showing all of the stored result.');
  });

  it('says an empty stored result is empty', () => {
    expect(storedResultWording({ modelCharacters: 0, storedCharacters: 0, pageStart: 0, pageEnd: 0 })).toBe(
      'The model saw all 0 stored characters. The stored result is empty.',
    );
  });
});

describe('transcriptCopySummary', () => {
  it('says the copy is what the model saw, with its length', () => {
    expect(transcriptCopySummary(14_573)).toBe(
      'Show the whole result as the model saw it (14,573 characters)',
    );
  });
});
