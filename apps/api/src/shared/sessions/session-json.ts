import { costJsonOf, type MessageJson, type SessionJson } from '@agentdesk/api-contract';
import type { Message, Session } from '@agentdesk/storage';

// The JSON shapes live in @agentdesk/api-contract (the console reads them too); these map storage rows to them.

export function toSessionJson(session: Session): SessionJson {
  return {
    id: session.id,
    ownerUserId: session.ownerUserId,
    portalId: session.portalId,
    label: session.label,
    status: session.status,
    model: session.model,
    systemPrompt: session.systemPrompt,
    metadata: session.metadata,
    tokenTotals: session.tokenTotals,
    ...costJsonOf(session.costMicros, session.unpricedCalls),
    messageCount: session.messageCount,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  };
}

export function toMessageJson(message: Message): MessageJson {
  return {
    id: message.id,
    sessionId: message.sessionId,
    seq: message.seq,
    role: message.role,
    contentParts: [...message.contentParts],
    toolCalls: message.toolCalls === null ? null : [...message.toolCalls],
    toolCallId: message.toolCallId,
    usage: message.usage,
    status: message.status,
    error: message.error === null ? null : { ...message.error },
    model: message.model,
    compressionEvents: message.compressionEvents === null ? null : [...message.compressionEvents],
    startedAt: message.startedAt.toISOString(),
    finishedAt: message.finishedAt === null ? null : message.finishedAt.toISOString(),
    createdAt: message.createdAt.toISOString(),
  };
}
