import type {
  ProviderName,
  ScriptedReply,
  ScriptedToolCall,
  ToolCallsReply,
} from '@agentdesk/provider-emulator';
import type { TurnMode } from './reliability-api';

/** A small seeded PRNG (mulberry32): the same seed plans the same soak. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What one soak turn injects, and what must come of it. */
export type TurnKind =
  | 'answer'
  | 'tool-calls'
  | 'retry-recovers'
  | 'retry-exhausted'
  | 'not-retryable'
  | 'stream-fault'
  | 'tool-calls-then-fault';

export interface PlannedTurn {
  readonly kind: TurnKind;
  readonly mode: TurnMode;
  /** Replies queued for this turn, in order (each matched to the session's own model). */
  readonly replies: ScriptedReply[];
  /** Upstream requests the turn must make: exactly the replies queued (counting `times`). */
  readonly attempts: number;
  /** Of those, the replies that are faults. */
  readonly faultyReplies: number;
  readonly outcome: 'complete' | 'failed';
  /** Tool calls the turn runs (each must end up with exactly one stored result). */
  readonly toolCalls: number;
  /** The answer text of a complete turn. */
  readonly answer?: string;
}

/** The id of the large stored tool result every soak session is seeded with. */
export const largeResultId = 'seed-large-result';
/** Characters of that seeded result; `read_tool_result` pages of up to 16,000 characters come from it. */
export const largeResultCharacters = 120_000;

/** Text of the seeded result: log-like lines, so token counts look like a real tool output. */
export function largeResultText(sessionIndex: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 0; length < largeResultCharacters; line++) {
    const text = `${String(line).padStart(6, '0')} session=${sessionIndex} level=info event=row_scanned table=orders id=${(line * 7919) % 100_003} status=ok\n`;
    lines.push(text);
    length += text.length;
  }
  return lines.join('').slice(0, largeResultCharacters);
}

const retryableStatuses = [429, 500, 503, 529] as const;

/**
 * Plans one turn. 80% are normal (15% of those call `read_tool_result` for one or two 16,000-character
 * pages, then answer); 20% carry a fault: retryable errors that then succeed, errors on every attempt,
 * a non-retryable 400, a stream broken mid-way (cut, malformed JSON, in-stream error; SSE turns only),
 * or tool calls followed by errors on every attempt.
 */
export function planTurn(random: () => number, provider: ProviderName, label: string): PlannedTurn {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  let mode: TurnMode = random() < 0.5 ? 'sse' : 'json';
  const answer = `answer to ${label}`;
  const text = (): ScriptedReply => ({ kind: 'text', text: answer, chunkSize: 8 });
  const error = (status: number, times: number): ScriptedReply => ({
    kind: 'error',
    status,
    retryAfterSeconds: 0,
    times,
  });
  const toolCallReply = (): { reply: ToolCallsReply; calls: number } => {
    const calls = random() < 0.5 ? 1 : 2;
    const toolCalls: ScriptedToolCall[] = Array.from({ length: calls }, () => ({
      name: 'read_tool_result',
      arguments: {
        id: largeResultId,
        offset: Math.floor(random() * (largeResultCharacters - 16_000)),
        limit: 16_000,
      },
    }));
    return { reply: { kind: 'tool-calls', toolCalls, chunkSize: 16 }, calls };
  };

  if (random() < 0.8) {
    if (random() < 0.15) {
      const { reply, calls } = toolCallReply();
      return {
        kind: 'tool-calls',
        mode,
        replies: [reply, text()],
        attempts: 2,
        faultyReplies: 0,
        outcome: 'complete',
        toolCalls: calls,
        answer,
      };
    }
    return {
      kind: 'answer',
      mode,
      replies: [text()],
      attempts: 1,
      faultyReplies: 0,
      outcome: 'complete',
      toolCalls: 0,
      answer,
    };
  }

  const fault = random();
  if (fault < 0.35) {
    const errors = random() < 0.5 ? 1 : 2;
    const replies = Array.from({ length: errors }, () => error(pick(retryableStatuses), 1));
    return {
      kind: 'retry-recovers',
      mode,
      replies: [...replies, text()],
      attempts: errors + 1,
      faultyReplies: errors,
      outcome: 'complete',
      toolCalls: 0,
      answer,
    };
  }
  if (fault < 0.55) {
    return {
      kind: 'retry-exhausted',
      mode,
      replies: [error(pick(retryableStatuses), 3)],
      attempts: 3,
      faultyReplies: 3,
      outcome: 'failed',
      toolCalls: 0,
    };
  }
  if (fault < 0.65) {
    return {
      kind: 'not-retryable',
      mode,
      replies: [error(400, 1)],
      attempts: 1,
      faultyReplies: 1,
      outcome: 'failed',
      toolCalls: 0,
    };
  }
  if (fault < 0.85) {
    // Streams only break for streaming calls; past the first chunk nothing is retried.
    mode = 'sse';
    const streamFault = pick([
      { kind: 'cut', afterChunks: 4 },
      { kind: 'malformed', afterChunks: 4 },
      { kind: 'error-event', afterChunks: 4, status: 503 },
    ] as const);
    // Gemini sends a function call in one chunk, so only OpenAI and Anthropic streams break inside one.
    const onToolCall = provider !== 'gemini' && random() < 0.5;
    const broken: ScriptedReply = onToolCall
      ? { ...toolCallReply().reply, chunkSize: 4, streamFault }
      : { kind: 'text', text: `${answer}, broken by a ${streamFault.kind} fault`, chunkSize: 4, streamFault };
    return {
      kind: 'stream-fault',
      mode,
      replies: [broken],
      attempts: 1,
      faultyReplies: 1,
      outcome: 'failed',
      toolCalls: 0,
    };
  }
  const { reply, calls } = toolCallReply();
  return {
    kind: 'tool-calls-then-fault',
    mode,
    replies: [reply, error(pick(retryableStatuses), 3)],
    attempts: 4,
    faultyReplies: 3,
    outcome: 'failed',
    toolCalls: calls,
  };
}

/** Requests a reply answers (`times`, default 1). */
export const repliesCount = (replies: readonly ScriptedReply[]): number =>
  replies.reduce((sum, reply) => sum + (typeof reply.times === 'number' ? reply.times : 1), 0);
