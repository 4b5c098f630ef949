import type { MessageSearchHitJson } from '@agentdesk/api-contract';
import { searchTermsOf, type MessageSearchHit } from '@agentdesk/storage';

/** How much text a result shows around the first word found. */
const SNIPPET_LENGTH = 160;

/** The message's text (its text parts, joined), as the index saw it. */
function messageTextOf(hit: MessageSearchHit): string {
  return hit.message.contentParts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
}

/** The text around the first searched word, with an ellipsis on each side that was cut. */
export function snippetOf(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_LENGTH) return flat;
  const lower = flat.toLowerCase();
  const positions = searchTermsOf(query)
    .map((term) => lower.indexOf(term))
    .filter((position) => position >= 0);
  const first = positions.length === 0 ? 0 : Math.min(...positions);
  const start = Math.max(0, Math.min(first - SNIPPET_LENGTH / 4, flat.length - SNIPPET_LENGTH));
  const end = start + SNIPPET_LENGTH;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

export function toMessageSearchHitJson(hit: MessageSearchHit, query: string): MessageSearchHitJson {
  return {
    messageId: hit.message.id,
    sessionId: hit.message.sessionId,
    ownerUserId: hit.ownerUserId,
    seq: hit.message.seq,
    role: hit.message.role,
    createdAt: hit.message.createdAt.toISOString(),
    snippet: snippetOf(messageTextOf(hit), query),
  };
}
