import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visibleText } from './visible-text';

describe('visibleText', () => {
  it.each([
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoice⟨U+202E⟩fdp.exe'],
    ['embeddings and the pop', '\u202Aa\u202Bb\u202Cc\u202Dd', '⟨U+202A⟩a⟨U+202B⟩b⟨U+202C⟩c⟨U+202D⟩d'],
    ['isolates', '\u2066x\u2067y\u2068z\u2069', '⟨U+2066⟩x⟨U+2067⟩y⟨U+2068⟩z⟨U+2069⟩'],
    ['a zero-width space', 'ad\u200Bmin', 'ad⟨U+200B⟩min'],
    ['zero-width (non-)joiners and marks', '\u200C\u200D\u200E\u200F', '⟨U+200C⟩⟨U+200D⟩⟨U+200E⟩⟨U+200F⟩'],
    ['the word joiner', 'a\u2060b', 'a⟨U+2060⟩b'],
    ['a byte-order mark', '\uFEFFops', '⟨U+FEFF⟩ops'],
    ['the Arabic letter mark', 'a\u061Cb', 'a⟨U+061C⟩b'],
    ['a tag character (hidden ASCII)', 'ok\u{E0041}', 'ok⟨U+E0041⟩'],
  ])('shows %s', (_case, label, shown) => {
    expect(visibleText(label)).toBe(shown);
  });

  it.each([
    ['plain text', 'Support case 42'],
    ['accents and other scripts', 'Zoë · 東京 · שלום · مرحبا'],
    ['an emoji built with joiners', 'Team 👩‍💻 and 👨‍👩‍👧'],
    ['an emoji with a skin tone and a joiner', '🧑🏽‍🚀'],
    ['the empty string', ''],
  ])('leaves %s as it is', (_case, label) => {
    expect(visibleText(label)).toBe(label);
  });

  it('shows a joiner that joins no pictographs', () => {
    expect(visibleText('a\u200D👩')).toBe('a⟨U+200D⟩👩');
  });

  it('never leaves a bidirectional control or zero-width character behind', () => {
    const hidden = fc.constantFrom(
      ...[0x061c, 0x200b, 0x200c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e]
        .concat([0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff])
        .map((codePoint) => String.fromCodePoint(codePoint)),
    );
    const text = fc
      .array(fc.oneof(fc.string({ maxLength: 4 }), hidden), { maxLength: 20 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (label) => {
        expect(visibleText(label)).not.toMatch(
          /[\u061C\u200B\u200C\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u,
        );
      }),
    );
  });
});
