/**
 * Characters that change how text reads without showing themselves: bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+061C), zero-width and directional marks
 * (U+200B–U+200F), invisible operators and the word joiner (U+2060–U+2064), deprecated format
 * controls (U+206A–U+206F), the byte-order mark (U+FEFF) and Unicode tag characters
 * (U+E0000–U+E007F, which hide ASCII). A label "invoice‮fdp.exe" reads as "invoiceexe.pdf".
 */
const hiddenCharacters =
  /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/gu;

// A zero-width joiner between two pictographs builds one emoji (👩‍💻): it is drawing, not hiding.
const pictographBefore = /\p{Extended_Pictographic}(?:\u{FE0F}|\p{Emoji_Modifier})?$/u;
const pictographAfter = /^\p{Extended_Pictographic}/u;
const ZERO_WIDTH_JOINER = '\u200D';

/** `⟨U+202E⟩`: how a hidden character is shown. */
export function characterMarker(character: string): string {
  const codePoint = character.codePointAt(0) ?? 0;
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * A label (key label, session title, user or portal id, display name) with every character that
 * could make it read as something else replaced by a visible marker, so "Revoke ‮yek nimda‬" cannot
 * pass for another key. Browser-safe and pure: used by server and client components alike.
 */
export function visibleText(text: string): string {
  return text.replace(hiddenCharacters, (character: string, offset: number) => {
    if (
      character === ZERO_WIDTH_JOINER &&
      pictographBefore.test(text.slice(Math.max(0, offset - 4), offset)) &&
      pictographAfter.test(text.slice(offset + 1, offset + 3))
    )
      return character;
    return characterMarker(character);
  });
}
