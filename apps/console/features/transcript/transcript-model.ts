import type {
  CompressionEventJson,
  MessageErrorJson,
  MessageJson,
  TokenUsageJson,
  ToolCallJson,
} from '@agentdesk/api-contract';

/*
 * Browser-safe: this module only groups messages whose open JSON parts were already checked against
 * the contract on the server (`server/check-message.ts`), so the browser runs no schema.
 */

/**
 * Which of a message's open JSON parts the server found readable against the contract, by index:
 * the browser picks those (typed) and shows the rest as raw JSON. Indices, not copies, so the
 * transcript is not sent twice.
 */
export interface MessageReading {
  /** `contentParts` that are text parts. */
  textParts: number[];
  /** `toolCalls` that are readable tool calls. */
  toolCalls: number[];
  /** `compressionEvents` that are readable compression events. */
  compressionEvents: number[];
  /** `error` is a readable message error. */
  errorReadable: boolean;
}

/** A message as the API returned it, with the server's reading of its parts. */
export interface CheckedMessage {
  message: MessageJson;
  reading: MessageReading;
}

/** A message's parts, split by the server's reading into typed ones and raw ones. */
interface ReadMessage {
  message: MessageJson;
  /** The text parts, joined. */
  text: string;
  /** Parts that are not text (or not readable): shown as raw JSON, never dropped. */
  otherParts: unknown[];
  toolCalls: ToolCallJson[];
  /** Tool calls the contract cannot read: shown as raw JSON. */
  unreadableToolCalls: unknown[];
  compressionEvents: CompressionEventJson[];
  unreadableCompressionEvents: unknown[];
  error: MessageErrorJson | undefined;
}

/** A tool call and the tool message that answered it (none yet, or none ever when the turn failed). */
export interface ToolExchange {
  call: ToolCallJson;
  result: MessageJson | undefined;
  resultText: string | undefined;
  resultIsError: boolean;
}

/** One message as the transcript shows it, with the parts read through the shared contract. */
export interface TranscriptMessage {
  message: MessageJson;
  text: string;
  /** Parts that are not text (or not readable): shown as raw JSON, never dropped. */
  otherParts: unknown[];
  toolExchanges: ToolExchange[];
  /** Tool calls the contract cannot read: shown as raw JSON. */
  unreadableToolCalls: unknown[];
  compressionEvents: CompressionEventJson[];
  unreadableCompressionEvents: unknown[];
  error: MessageErrorJson | undefined;
}

/** A user's message and everything the agent did to answer it. */
export interface Turn {
  /** 1-based; 0 holds anything recorded before the first user message. */
  number: number;
  messages: TranscriptMessage[];
  usage: TokenUsageJson;
  modelCalls: number;
  failed: boolean;
  running: boolean;
  /** From the user's message to the last finished message, when known. */
  durationMs: number | undefined;
}

export interface TranscriptTotals {
  turns: number;
  failedTurns: number;
  modelCalls: number;
  toolCalls: number;
  compressions: number;
  usage: TokenUsageJson;
  /** Turns still running (a message is pending). */
  runningTurns: number;
  /** Sum of the finished turns' durations (user message to last finished message). */
  latencyTotalMs: number;
  /** Mean and slowest finished turn; undefined when no turn has finished. */
  latencyAverageMs: number | undefined;
  latencySlowestMs: number | undefined;
}

const zeroUsage = (): TokenUsageJson => ({ input: 0, output: 0, thinking: 0, cached: 0 });

function addUsage(total: TokenUsageJson, usage: TokenUsageJson | null): void {
  if (usage === null) return;
  total.input += usage.input;
  total.output += usage.output;
  total.thinking += usage.thinking;
  total.cached += usage.cached;
}

/** Tool messages by the id of the call they answer (a call answered twice keeps the first answer). */
function toolResultsByCallId(messages: readonly ReadMessage[]): Map<string, ReadMessage> {
  const results = new Map<string, ReadMessage>();
  for (const entry of messages) {
    const { message } = entry;
    if (message.role === 'tool' && message.toolCallId !== null && !results.has(message.toolCallId))
      results.set(message.toolCallId, entry);
  }
  return results;
}

function pick<Item>(values: readonly unknown[] | null, readable: readonly number[]) {
  const chosen = new Set(readable);
  const read: Item[] = [];
  const unreadable: unknown[] = [];
  // The server checked exactly these indices against the contract's schema for `Item`.
  (values ?? []).forEach((value, index) =>
    chosen.has(index) ? read.push(value as Item) : unreadable.push(value),
  );
  return { read, unreadable };
}

function readParts({ message, reading }: CheckedMessage): ReadMessage {
  const texts = pick<{ text: string }>(message.contentParts, reading.textParts);
  const calls = pick<ToolCallJson>(message.toolCalls, reading.toolCalls);
  const events = pick<CompressionEventJson>(message.compressionEvents, reading.compressionEvents);
  return {
    message,
    text: texts.read.map((part) => part.text).join('\n'),
    otherParts: texts.unreadable,
    toolCalls: calls.read,
    unreadableToolCalls: calls.unreadable,
    compressionEvents: events.read,
    unreadableCompressionEvents: events.unreadable,
    error:
      message.error === null
        ? undefined
        : reading.errorReadable
          ? (message.error as MessageErrorJson)
          : { code: 'unknown', message: JSON.stringify(message.error) },
  };
}

function toTranscriptMessage(entry: ReadMessage, results: Map<string, ReadMessage>): TranscriptMessage {
  const { toolCalls, ...read } = entry;
  return {
    ...read,
    toolExchanges: toolCalls.map((call) => {
      const result = results.get(call.id);
      return {
        call,
        result: result?.message,
        resultText: result?.text,
        resultIsError:
          result !== undefined && (result.message.error !== null || result.message.status === 'failed'),
      };
    }),
  };
}

/**
 * Groups a transcript (in `seq` order) into turns: each starts at a user message. Tool messages
 * answered a call are shown inside that call's card, not again on their own; a tool message whose
 * call is unknown stays in the transcript as a message.
 */
export function buildTurns(messages: readonly CheckedMessage[]): Turn[] {
  const ordered = [...messages].sort((left, right) => left.message.seq - right.message.seq).map(readParts);
  const results = toolResultsByCallId(ordered);
  const answeredCallIds = new Set<string>();
  for (const entry of ordered)
    for (const call of entry.toolCalls) if (results.has(call.id)) answeredCallIds.add(call.id);

  const turns: Turn[] = [];
  let current: Turn | undefined;
  for (const entry of ordered) {
    const { message } = entry;
    if (message.role === 'user' || current === undefined) {
      current = {
        number: message.role === 'user' ? turns.filter((turn) => turn.number > 0).length + 1 : 0,
        messages: [],
        usage: zeroUsage(),
        modelCalls: 0,
        failed: false,
        running: false,
        durationMs: undefined,
      };
      turns.push(current);
    }
    if (message.role === 'tool' && message.toolCallId !== null && answeredCallIds.has(message.toolCallId))
      continue;
    current.messages.push(toTranscriptMessage(entry, results));
    if (message.role === 'assistant') {
      current.modelCalls += 1;
      addUsage(current.usage, message.usage);
    }
    if (message.status === 'failed' && message.role !== 'tool') current.failed = true;
    if (message.status === 'pending') current.running = true;
  }
  for (const turn of turns) turn.durationMs = durationOf(turn);
  return turns;
}

function durationOf(turn: Turn): number | undefined {
  const first = turn.messages[0]?.message;
  const finishedTimes = turn.messages
    .map((entry) => entry.message.finishedAt)
    .filter((time): time is string => time !== null)
    .map((time) => Date.parse(time));
  if (first === undefined || finishedTimes.length === 0 || turn.running) return undefined;
  return Math.max(...finishedTimes) - Date.parse(first.startedAt);
}

export function transcriptTotals(turns: readonly Turn[]): TranscriptTotals {
  const usage = zeroUsage();
  let toolCalls = 0;
  let compressions = 0;
  for (const turn of turns) {
    addUsage(usage, turn.usage);
    for (const entry of turn.messages) {
      toolCalls += entry.toolExchanges.length + entry.unreadableToolCalls.length;
      compressions += entry.compressionEvents.length + entry.unreadableCompressionEvents.length;
    }
  }
  const durations = turns
    .map((turn) => turn.durationMs)
    .filter((duration): duration is number => duration !== undefined);
  const latencyTotalMs = durations.reduce((sum, duration) => sum + duration, 0);
  return {
    runningTurns: turns.filter((turn) => turn.running).length,
    latencyTotalMs,
    latencyAverageMs: durations.length === 0 ? undefined : latencyTotalMs / durations.length,
    latencySlowestMs: durations.length === 0 ? undefined : Math.max(...durations),
    turns: turns.filter((turn) => turn.number > 0).length,
    failedTurns: turns.filter((turn) => turn.failed).length,
    modelCalls: turns.reduce((sum, turn) => sum + turn.modelCalls, 0),
    toolCalls,
    compressions,
    usage,
  };
}
