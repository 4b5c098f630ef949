import type { LiveTurnEvent } from '@agentdesk/api-contract';

/**
 * The same events with each run of consecutive text deltas of one message joined into one: what a
 * reader shows is unchanged, and a batch or a slow reader's backlog holds one event per run.
 */
export function coalesceLiveEvents(events: readonly LiveTurnEvent[]): LiveTurnEvent[] {
  const joined: LiveTurnEvent[] = [];
  for (const event of events) {
    const last = joined[joined.length - 1];
    if (event.type === 'text-delta' && last?.type === 'text-delta' && last.messageId === event.messageId)
      joined[joined.length - 1] = { ...last, text: last.text + event.text };
    else joined.push(event);
  }
  return joined;
}
