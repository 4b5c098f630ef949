import type { MessageSearchHitJson, SnippetHighlightJson } from '@agentdesk/api-contract';
import {
  patternMatchesWord,
  searchPatternsOf,
  type MessageSearchHit,
  type SearchPattern,
} from '@agentdesk/storage';

/** How much text a result shows around the first word found. */
const SNIPPET_LENGTH = 160;

const wordPattern = /[\p{L}\p{N}]+/gu;

/** The message's text (its text parts, joined), as the index saw it. */
function messageTextOf(hit: MessageSearchHit): string {
  return hit.message.contentParts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
}

/**
 * Where the searched words are in `text`: each word of the text a pattern finds (the word itself,
 * or for the last searched word a word it begins), as the part the pattern matched.
 */
export function highlightsOf(text: string, patterns: readonly SearchPattern[]): SnippetHighlightJson[] {
  const highlights: SnippetHighlightJson[] = [];
  for (const match of text.matchAll(wordPattern)) {
    const word = match[0];
    const lower = word.toLowerCase();
    const pattern = patterns
      .filter((candidate) => patternMatchesWord(candidate, lower))
      .sort((a, b) => b.word.length - a.word.length)[0];
    if (pattern === undefined) continue;
    // Lower-casing can change a word's length (e.g. "İ"): then the whole word is marked.
    const length = lower.length === word.length ? pattern.word.length : word.length;
    highlights.push({ start: match.index, length });
  }
  return highlights;
}

/** The text around the first searched word, with an ellipsis on each side that was cut. */
export function snippetOf(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_LENGTH) return flat;
  const first = highlightsOf(flat, searchPatternsOf(query))[0]?.start ?? 0;
  const start = Math.max(0, Math.min(first - SNIPPET_LENGTH / 4, flat.length - SNIPPET_LENGTH));
  const end = start + SNIPPET_LENGTH;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

export function toMessageSearchHitJson(hit: MessageSearchHit, query: string): MessageSearchHitJson {
  const snippet = snippetOf(messageTextOf(hit), query);
  return {
    messageId: hit.message.id,
    sessionId: hit.message.sessionId,
    ownerUserId: hit.ownerUserId,
    seq: hit.message.seq,
    role: hit.message.role,
    createdAt: hit.message.createdAt.toISOString(),
    snippet,
    highlights: highlightsOf(snippet, searchPatternsOf(query)),
  };
}
