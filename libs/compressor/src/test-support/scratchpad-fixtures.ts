import type { AssistantMessage, ChatMessage, ToolMessage } from '@agentdesk/providers';
import type { Summarizer } from '../summarizer/summarizer';

/** An assistant message calling one tool, and that tool's result. */
export function callAndResult(
  id: string,
  name: string,
  result: ToolMessage['content'],
  toolArguments = '{"query":"select * from orders"}',
): [AssistantMessage, ToolMessage] {
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name, arguments: toolArguments }] },
    { role: 'tool', toolCallId: id, toolName: name, content: result },
  ];
}

/** `count` numbered log lines, about 60 characters each. */
export function logLines(count: number, prefix = 'row'): string {
  return Array.from(
    { length: count },
    (_, index) => `${prefix} ${index}: status=ok latency=${(index * 37) % 1000}ms user=u${index % 97}`,
  ).join('\n');
}

/**
 * Checks the invariant providers enforce with a 400: every assistant tool call is answered by
 * exactly one tool message right after it, and every tool message answers a call of the assistant
 * message before it. Returns the problems found (empty when well paired).
 */
export function pairingProblems(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let pending = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!pending.delete(message.toolCallId))
        problems.push(`tool message ${index} (${message.toolCallId}) answers no pending call`);
      continue;
    }
    if (pending.size > 0)
      problems.push(`calls ${[...pending].join(', ')} unanswered before message ${index}`);
    pending = new Set(message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : []);
  }
  if (pending.size > 0) problems.push(`calls ${[...pending].join(', ')} unanswered at the end`);
  return problems;
}

/** Summarizers that succeed or fail in each way the compressor must survive. */
export const fakeSummarizers = {
  returning: (text: string): Summarizer => ({ summarize: async () => text }),
  failing: (message = 'provider answered 503'): Summarizer => ({
    summarize: async () => {
      throw new Error(message);
    },
  }),
  /** Never settles and ignores its signal: only the compressor's own timeout can end it. */
  hanging: (): Summarizer => ({ summarize: () => new Promise<string>(() => undefined) }),
  /** Settles only when aborted; `onStart` runs as the summary starts (a test aborts from there). */
  abortable: (onStart: () => void = () => undefined): Summarizer => ({
    summarize: (_entries, options) =>
      new Promise<string>((_resolve, reject) => {
        if (options.signal.aborted) return reject(new Error('aborted'));
        options.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        onStart();
      }),
  }),
  /** Ignores maxTokens. */
  overshooting: (): Summarizer => ({
    summarize: async (_entries, options) => 'word '.repeat(options.maxTokens * 3 + 50),
  }),
  empty: (): Summarizer => ({ summarize: async () => '   ' }),
};
