import type { ChatMessage, ToolMessage } from '@agentdesk/providers';
import { flattenContent } from '../messages/flatten-content';
import type { ToolResultStore } from '../store/tool-result-store';
import type { TokenCount, TokenCounter } from '../tokens/count-tokens';
import type { NoticeLanguage } from '../truncation/truncation-notice';
import type { TruncatedItem } from './compression-event';

/** A tool message after truncation, and the record of what was cut. */
export interface ToolMessageTruncation {
  message: ToolMessage;
  item: TruncatedItem;
}

/** The truncations of one message, valid while its content is the same object. */
export interface MemoizedTruncations {
  content: ToolMessage['content'];
  byTarget: Map<number, ToolMessageTruncation>;
}

/** Settings and shared state of one compressor, passed to the steps of a compression. */
export interface CompressionContext {
  counter: TokenCounter;
  language: NoticeLanguage;
  headShare: number;
  maxMessageCharacters: number;
  store?: ToolResultStore;
  /** Truncations already computed, per original message and target; an unchanged scratchpad is not cut again. */
  truncations: WeakMap<ToolMessage, MemoizedTruncations>;
  /** Ids of results already stored, per message, so a store (maybe a database) is asked once per result. */
  storedIds: WeakMap<ToolMessage, { content: ToolMessage['content']; id: string }>;
}

/** Stores a tool result's full text (once per message) and returns its id; `undefined` without a store. */
export async function storeResult(
  context: CompressionContext,
  message: ToolMessage,
): Promise<string | undefined> {
  if (context.store === undefined) return undefined;
  const known = context.storedIds.get(message);
  if (known !== undefined && known.content === message.content) return known.id;
  const id = await context.store.put({
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    content: flattenContent(message.content),
  });
  context.storedIds.set(message, { content: message.content, id });
  return id;
}

/** Characters of a message's content once flattened, without building the flat string. */
export function contentLength(message: ChatMessage): number {
  const content = message.content;
  if (typeof content === 'string') return content.length;
  let length = Math.max(0, content.length - 1);
  for (const part of content) length += part.type === 'text' ? part.text.length : 0;
  return length;
}

/** Tokens of a message up to `limit`, plus whether its content is over the per-message character cap. */
export function measure(
  context: CompressionContext,
  message: ChatMessage,
  limit: number,
): TokenCount & { overCharacterCap: boolean } {
  const count = context.counter.countMessageUpTo(message, limit);
  return { ...count, overCharacterCap: contentLength(message) > context.maxMessageCharacters };
}

/** True when a message fits `limit` tokens and the character cap as it is. */
export function fitsAsIs(context: CompressionContext, message: ChatMessage, limit: number): boolean {
  const measured = measure(context, message, limit);
  return measured.exact && measured.tokens <= limit && !measured.overCharacterCap;
}

/** Token count for reporting: exact when cheap, else the overhead plus an estimate of the content. */
export function reportedTokens(context: CompressionContext, message: ChatMessage, limit: number): TokenCount {
  const count = context.counter.countMessageUpTo(message, limit);
  if (count.exact) return count;
  const overhead = context.counter.countMessage({ ...message, content: '' } as ChatMessage);
  const content = context.counter.estimateText(
    message.role === 'user' ? '' : flattenContent(message.content),
  );
  return { tokens: Math.max(count.tokens, overhead + content.tokens), exact: false };
}
