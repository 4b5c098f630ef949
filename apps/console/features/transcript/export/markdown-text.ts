/**
 * Text that people and models wrote (labels, messages, errors), put into the Markdown export so it
 * renders as exactly that text: no raw HTML (`<img onerror>`), no link or image of any kind
 * (`[click](javascript:…)`, `<javascript:…>`, `[x]: data:…`), no heading, list or table made by the
 * writer. A Markdown viewer that links bare URLs (GitHub's autolinks) does so for http(s), `www.` and
 * e-mail addresses only, the schemes the export allows.
 */

const htmlEntities: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// Every character that opens or closes inline Markdown (emphasis, code, links, images, tables,
// strikethrough, heading closers) is escaped with a backslash; CommonMark shows it as itself.
const inlineSyntax = /[\\`*_[\]()!~|#{}]/g;

// What makes a line a block (list item, ordered item, setext underline) when it starts with it.
const blockStart = /^(\s*)([-+=]|\d{1,9}(?=[.)]))/;

/** One line of text, literal in Markdown. */
function literalLine(line: string): string {
  const escaped = line
    .replace(/[&<>]/g, (character) => htmlEntities[character] ?? character)
    .replace(inlineSyntax, (character) => `\\${character}`);
  // "1." / "1)": the digits stay, the dot or parenthesis is escaped ("1\." is not a list).
  return escaped.replace(blockStart, (_start, indent: string, marker: string) =>
    /^\d/.test(marker) ? `${indent}${marker}\\` : `${indent}\\${marker}`,
  );
}

/**
 * Text shown as itself in Markdown, line by line (a blank line stays a paragraph break). A lone
 * carriage return ends a line in Markdown too, so every line ending is read as one and written `\n`.
 */
export function markdownText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map(literalLine)
    .join('\n');
}

/** Text on one line (a heading, a list item): line breaks become spaces, then literal. */
export function markdownLine(text: string): string {
  return markdownText(text.replace(/[\r\n]+/g, ' '));
}

/** An inline code span no backtick run inside can close, on one line (a blank line would end it). */
export function inlineCode(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longestRun = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const padding = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${flat}${padding}${fence}`;
}
