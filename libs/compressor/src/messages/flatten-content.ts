import type { TextPart } from '@agentdesk/providers';

/**
 * Flattens message content to one string: text parts joined by a line break.
 * Truncation and counting work on this flat text so a result split over many blocks is cut once,
 * around one marker, instead of block by block.
 */
export function flattenContent(content: string | readonly TextPart[]): string {
  if (typeof content === 'string') return content;
  if (content.length === 1) return content[0]!.text;
  return content.map((part) => part.text).join('\n');
}
