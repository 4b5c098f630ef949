/**
 * One Server-Sent Event as it goes on the wire: optional `id:` and `event:` lines, the data as one
 * `data:` line per line of text, and a blank line.
 */
export interface SseFrame {
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
}

// SSE ends a line at CR, LF or CRLF: a field value holding one would start a field of its own.
const lineBreak = /\r\n|\r|\n/;

/** The frame's text, e.g. `event: turn-end\ndata: {…}\n\n`. */
export function formatSseFrame(frame: SseFrame): string {
  let text = '';
  if (frame.id !== undefined) text += `id: ${singleLine('id', frame.id)}\n`;
  if (frame.event !== undefined) text += `event: ${singleLine('event', frame.event)}\n`;
  for (const line of frame.data.split(lineBreak)) text += `data: ${line}\n`;
  return `${text}\n`;
}

function singleLine(field: 'id' | 'event', value: string): string {
  if (lineBreak.test(value))
    throw new Error(`An SSE ${field} must be one line, got ${JSON.stringify(value)}`);
  return value;
}

/** A comment line: clients ignore it, proxies see traffic on an idle stream. */
export const SSE_HEARTBEAT = ': keep-alive\n\n';

/** `event: <name>` and the value as one JSON `data:` line (the agent turn, the build log). */
export function namedJsonEvent(event: string, value: unknown): SseFrame {
  return { event, data: JSON.stringify(value) };
}

/** The value as a bare JSON `data:` line, no `event:` (OpenAI's chunks and in-stream errors). */
export function jsonData(value: unknown): SseFrame {
  return { data: JSON.stringify(value) };
}

/** OpenAI's end of a Chat Completions stream: `data: [DONE]`. */
export const OPENAI_DONE_FRAME: SseFrame = { data: '[DONE]' };
