import type { MessageJson } from '@agentdesk/api-contract';

/**
 * How long after its last step a turn that has not answered yet is still watched. Between two model
 * calls (a tool running) no message is pending; a turn silent for longer has been abandoned (the
 * API's lease sweeper marks a crashed turn's message interrupted well within this).
 */
export const UNFINISHED_TURN_WATCH_MS = 60_000;

/**
 * Whether the transcript's last turn may still be running: a message is pending, or the last step
 * (a user message, a tool result, an assistant message asking for tools) awaits the next one and
 * happened recently.
 */
export function turnMayBeRunning(messages: readonly MessageJson[], now: number): boolean {
  if (messages.some((message) => message.status === 'pending')) return true;
  const last = messages[messages.length - 1];
  if (last === undefined || last.status === 'failed') return false;
  const awaitsNextStep =
    last.role === 'user' ||
    last.role === 'tool' ||
    (last.role === 'assistant' && last.toolCalls !== null && last.toolCalls.length > 0);
  const lastStepAt = Date.parse(last.finishedAt ?? last.createdAt);
  return awaitsNextStep && now - lastStepAt < UNFINISHED_TURN_WATCH_MS;
}
