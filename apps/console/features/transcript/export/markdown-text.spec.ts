import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inlineCode, markdownLine, markdownText } from './markdown-text';

/** Characters a Markdown renderer would read as syntax, were they not escaped. */
function unescapedSyntax(markdown: string): string[] {
  const found: string[] = [];
  for (let index = 0; index < markdown.length; index += 1) {
    const character = markdown[index] ?? '';
    if (character === '\\') {
      index += 1; // the escaped character is literal
      continue;
    }
    if ('<>`*_[]()!~|#{}'.includes(character)) found.push(character);
  }
  return found;
}

describe('markdownText', () => {
  it.each([
    ['raw HTML', '<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert\\(1\\)&gt;'],
    ['a script element', '<script>alert(1)</script>', '&lt;script&gt;alert\\(1\\)&lt;/script&gt;'],
    ['a javascript: link', '[click](javascript:alert(1))', '\\[click\\]\\(javascript:alert\\(1\\)\\)'],
    ['an image', '![x](https://evil.example/t.png)', '\\!\\[x\\]\\(https://evil.example/t.png\\)'],
    ['an autolink', '<javascript:alert(1)>', '&lt;javascript:alert\\(1\\)&gt;'],
    ['a reference definition', '[x]: data:text/html,hi', '\\[x\\]: data:text/html,hi'],
    ['an entity that would decode', '&#106;avascript:', '&amp;\\#106;avascript:'],
    ['emphasis and code', '**bold** _it_ `code`', '\\*\\*bold\\*\\* \\_it\\_ \\`code\\`'],
    ['a heading', '# Title', '\\# Title'],
    ['a list item', '- item', '\\- item'],
    ['an ordered item', '1. first', '1\\. first'],
    ['a setext underline', '===', '\\==='],
    ['a table row', '| a | b |', '\\| a \\| b \\|'],
    ['a backslash', 'C:\\path', 'C:\\\\path'],
    ['plain words', 'Done, thanks.', 'Done, thanks.'],
  ])('shows %s as text', (_case, text, markdown) => {
    expect(markdownText(text)).toBe(markdown);
  });

  it('keeps line breaks, each line literal', () => {
    expect(markdownText('one\n# two\n\n- three')).toBe('one\n\\# two\n\n\\- three');
  });

  it('reads a lone carriage return as the line ending it is in Markdown', () => {
    expect(markdownText('one\r= two\r\n- three')).toBe('one\n\\= two\n\\- three');
  });

  it('leaves no HTML, link, image or emphasis syntax unescaped, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        const markdown = markdownText(text);
        expect(unescapedSyntax(markdown)).toEqual([]);
        expect(markdown).not.toMatch(/^\s*[-+=]/m);
      }),
      { numRuns: 500 },
    );
  });
});

describe('markdownLine', () => {
  it('puts text on one line', () => {
    expect(markdownLine('Support\n# case\r\n<b>')).toBe('Support \\# case &lt;b&gt;');
  });
});

describe('inlineCode', () => {
  it.each([
    ['a name', 'read_log', '`read_log`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['a backtick at the edge', '`x', '`` `x ``'],
    ['a blank line that would end the span', 'a\n\n<b>', '`a <b>`'],
  ])('wraps %s', (_case, text, markdown) => {
    expect(inlineCode(text)).toBe(markdown);
  });
});
