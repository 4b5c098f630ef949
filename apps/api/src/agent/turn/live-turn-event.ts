import type { LiveTurnEvent } from '@agentdesk/api-contract';
import { assertNever } from '../../errors/assert-never';
import type { TurnEvent } from './turn-events';

/**
 * A turn event as a session's readers see it live (`GET /v1/admin/sessions/:id/live`), or nothing
 * for what only the turn's own client needs (compression reports). The stored answer's usage means
 * the message is complete.
 */
export function toLiveTurnEvent(event: TurnEvent): LiveTurnEvent | undefined {
  switch (event.type) {
    case 'turn-start':
      return {
        type: 'turn-start',
        turnId: event.turnId,
        userMessageId: event.userMessageId,
        model: event.model,
      };
    case 'text-delta':
      return { type: 'text-delta', messageId: event.messageId, text: event.text };
    case 'tool-call':
      return {
        type: 'tool-call',
        messageId: event.messageId,
        toolCall: { id: event.toolCall.id, name: event.toolCall.name, arguments: event.toolCall.arguments },
      };
    case 'tool-result':
      return {
        type: 'tool-result',
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        isError: event.isError,
        characters: event.characters,
        preview: event.preview,
      };
    case 'usage':
      return { type: 'message-complete', messageId: event.messageId };
    case 'turn-end':
      return { type: 'turn-end', turnId: event.turnId, status: 'complete' };
    case 'error':
      return { type: 'turn-end', turnId: event.turnId, status: 'failed', error: event.error };
    case 'compression':
      return undefined;
    default:
      return assertNever(event);
  }
}
