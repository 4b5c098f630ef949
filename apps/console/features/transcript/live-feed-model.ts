import type { LiveFeedEvent, MessageErrorJson, ToolCallJson } from '@agentdesk/api-contract';
import type { CheckedMessage } from './transcript-model';

/*
 * Browser-safe: events reach the browser already checked against the contract by the console's
 * route handler (`server/checked-live-events.ts`), so nothing here runs a schema.
 */

/** An answer as it streams: its text so far and the tool calls it made. */
export interface LiveAnswer {
  messageId: string;
  text: string;
  toolCalls: ToolCallJson[];
  complete: boolean;
}

/** A tool's result as the turn reported it (the stored one is read when the turn ends). */
export interface LiveToolResult {
  toolCallId: string;
  toolName: string;
  isError: boolean;
  characters: number;
  preview: string;
}

/** What the live feed has shown of a session's running turn since the page joined it. */
export interface LiveTurnView {
  /** The stored message seq the feed follows on from; null until the snapshot arrived. */
  afterSeq: number | null;
  turnId: string | null;
  /** A turn is running (it started, or streamed, and has not ended). */
  running: boolean;
  answers: LiveAnswer[];
  toolResults: LiveToolResult[];
  /** How the last turn ended, until the stored transcript shows it. */
  ended: { status: 'complete' | 'failed'; error: MessageErrorJson | undefined } | null;
  /** Why the API stopped the feed (this reader fell behind). */
  dropped: string | null;
}

export const emptyLiveTurn: LiveTurnView = {
  afterSeq: null,
  turnId: null,
  running: false,
  answers: [],
  toolResults: [],
  ended: null,
  dropped: null,
};

function withAnswer(
  view: LiveTurnView,
  messageId: string,
  change: (answer: LiveAnswer) => LiveAnswer,
): LiveAnswer[] {
  const index = view.answers.findIndex((answer) => answer.messageId === messageId);
  if (index === -1) return [...view.answers, change({ messageId, text: '', toolCalls: [], complete: false })];
  return view.answers.map((answer, at) => (at === index ? change(answer) : answer));
}

/** The view after one more event of the feed. */
export function applyLiveEvent(view: LiveTurnView, event: LiveFeedEvent): LiveTurnView {
  switch (event.type) {
    case 'snapshot':
      return {
        ...emptyLiveTurn,
        afterSeq: event.afterSeq,
        turnId: event.turnId,
        running: event.turnId !== null || event.partialAnswers.length > 0,
        answers: event.partialAnswers.map(({ messageId, text }) => ({
          messageId,
          text,
          toolCalls: [],
          complete: false,
        })),
      };
    case 'turn-start':
      return { ...emptyLiveTurn, afterSeq: view.afterSeq, turnId: event.turnId, running: true };
    case 'text-delta':
      return {
        ...view,
        running: true,
        answers: withAnswer(view, event.messageId, (answer) => ({
          ...answer,
          text: answer.text + event.text,
        })),
      };
    case 'tool-call':
      return {
        ...view,
        running: true,
        answers: withAnswer(view, event.messageId, (answer) => ({
          ...answer,
          toolCalls: [...answer.toolCalls, event.toolCall],
        })),
      };
    case 'tool-result':
      return { ...view, toolResults: [...view.toolResults, { ...event }] };
    case 'message-complete':
      return {
        ...view,
        answers: withAnswer(view, event.messageId, (answer) => ({ ...answer, complete: true })),
      };
    case 'turn-end':
      return { ...view, running: false, ended: { status: event.status, error: event.error } };
    case 'dropped':
      return { ...view, running: false, dropped: event.reason };
  }
}

/**
 * The stored transcript with what the feed showed laid over it: a stored answer still pending
 * shows the text streamed so far and its tool calls; answers and tool results not stored yet (or
 * not read yet) follow as pending and live entries. Nothing shows twice: a stored message that is
 * no longer pending is taken as it is.
 */
export function withLiveTurn(
  messages: readonly CheckedMessage[],
  view: LiveTurnView,
  sessionId: string,
): CheckedMessage[] {
  if (view.answers.length === 0 && view.toolResults.length === 0) return [...messages];
  const answers = new Map(view.answers.map((answer) => [answer.messageId, answer]));
  const stored = new Set(messages.map((entry) => entry.message.id));
  const storedToolResults = new Set(
    messages.flatMap((entry) =>
      entry.message.role === 'tool' && entry.message.toolCallId !== null ? [entry.message.toolCallId] : [],
    ),
  );
  const shown = messages.map((entry) => {
    const answer = answers.get(entry.message.id);
    return answer === undefined || entry.message.status !== 'pending' ? entry : overlay(entry, answer);
  });
  let seq = messages.reduce((highest, entry) => Math.max(highest, entry.message.seq), view.afterSeq ?? 0);
  const now = new Date().toISOString();
  const pendingEntry = (
    id: string,
    role: 'assistant' | 'tool',
    status: 'pending' | 'complete',
  ): CheckedMessage => ({
    message: {
      id,
      sessionId,
      seq: (seq += 1),
      role,
      contentParts: [],
      toolCalls: null,
      toolCallId: null,
      usage: null,
      status,
      error: null,
      model: null,
      compressionEvents: null,
      startedAt: now,
      finishedAt: null,
      createdAt: now,
    },
    reading: { textParts: [], toolCalls: [], compressionEvents: [], errorReadable: false },
  });
  // Results follow the answer that called them, in the order the turn reported them.
  const resultsByCall = new Map(view.toolResults.map((result) => [result.toolCallId, result]));
  for (const answer of view.answers) {
    if (!stored.has(answer.messageId))
      shown.push(overlay(pendingEntry(answer.messageId, 'assistant', 'pending'), answer));
    for (const call of answer.toolCalls) {
      const result = resultsByCall.get(call.id);
      if (result === undefined || storedToolResults.has(call.id)) continue;
      const entry = pendingEntry(`live-result-${call.id}`, 'tool', 'complete');
      shown.push({
        message: {
          ...entry.message,
          toolCallId: call.id,
          contentParts: [{ type: 'text', text: result.preview }],
          ...(result.isError && { error: { code: 'tool_error', message: result.preview } }),
        },
        reading: { ...entry.reading, textParts: [0], errorReadable: result.isError },
      });
    }
  }
  return shown;
}

function overlay(entry: CheckedMessage, answer: LiveAnswer): CheckedMessage {
  const { message, reading } = entry;
  const storedCalls = message.toolCalls ?? [];
  const storedIds = new Set(storedCalls.map((call) => call['id']));
  const newCalls = answer.toolCalls.filter((call) => !storedIds.has(call.id));
  return {
    message: {
      ...message,
      contentParts:
        answer.text === ''
          ? message.contentParts
          : [...message.contentParts, { type: 'text', text: answer.text }],
      toolCalls:
        storedCalls.length + newCalls.length === 0 ? message.toolCalls : [...storedCalls, ...newCalls],
    },
    reading: {
      ...reading,
      textParts: answer.text === '' ? reading.textParts : [...reading.textParts, message.contentParts.length],
      toolCalls: [...reading.toolCalls, ...newCalls.map((_, index) => storedCalls.length + index)],
    },
  };
}
