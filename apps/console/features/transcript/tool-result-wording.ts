const count = (characters: number) => characters.toLocaleString('en-US');

/** What one page of a stored tool result shows, against what the model saw and what is stored. */
export interface StoredResultView {
  /** Characters of the result the model was given (the transcript's copy); undefined if none was recorded. */
  readonly modelCharacters: number | undefined;
  /** Characters of the whole result as the tool returned it (what the API stores). */
  readonly storedCharacters: number;
  /** Where the page shown starts, and where it ends (exclusive), in characters of the stored result. */
  readonly pageStart: number;
  readonly pageEnd: number;
}

/**
 * The sentence above a page of a stored tool result: exactly what it shows, with each number only
 * where it differs — e.g. "The model saw 14,573 of 228,955 stored characters. Showing characters
 * 1–20,000 of the stored result."
 */
export function storedResultWording(view: StoredResultView): string {
  const { modelCharacters, storedCharacters, pageStart, pageEnd } = view;
  const saw =
    modelCharacters === undefined
      ? `${count(storedCharacters)} characters are stored.`
      : modelCharacters >= storedCharacters
        ? `The model saw all ${count(storedCharacters)} stored characters.`
        : `The model saw ${count(modelCharacters)} of ${count(storedCharacters)} stored characters.`;
  if (storedCharacters === 0) return `${saw} The stored result is empty.`;
  const showing =
    pageStart === 0 && pageEnd >= storedCharacters
      ? 'Showing all of the stored result.'
      : `Showing characters ${count(pageStart + 1)}–${count(pageEnd)} of the stored result.`;
  return `${saw} ${showing}`;
}

/** The disclosure of the transcript's copy of a result: what it holds, not "the whole result". */
export function transcriptCopySummary(characters: number): string {
  return `Show the whole result as the model saw it (${count(characters)} characters)`;
}
