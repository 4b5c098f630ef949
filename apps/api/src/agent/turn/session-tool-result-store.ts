import type { ToolResultPage, ToolResultRecord, ToolResultStore } from '@agentdesk/compressor';
import { isStorageError, StorageErrorCode, type Repositories } from '@agentdesk/storage';

/**
 * The compressor's store over the persisted tool results of one session. Every full result is saved
 * when the tool returns, so `put` only makes sure it exists; the id is the tool call id, which is
 * unique in a session. Reads are owner-scoped like every other read.
 */
export class SessionToolResultStore implements ToolResultStore {
  constructor(
    private readonly repositories: Pick<Repositories, 'turnStore' | 'transcript'>,
    private readonly ownerUserId: string,
    private readonly sessionId: string,
  ) {}

  async put(record: ToolResultRecord): Promise<string> {
    try {
      await this.repositories.turnStore.keepToolResult(this.ownerUserId, {
        sessionId: this.sessionId,
        toolCallId: record.toolCallId,
        content: record.content,
      });
    } catch (error) {
      if (!(isStorageError(error) && error.code === StorageErrorCode.Conflict)) throw error;
    }
    return record.toolCallId;
  }

  async get(id: string, offset: number, limit: number): Promise<ToolResultPage | undefined> {
    let stored;
    try {
      stored = await this.repositories.transcript.getToolResultForOwner(this.ownerUserId, this.sessionId, id);
    } catch (error) {
      if (isStorageError(error) && error.code === StorageErrorCode.NotFound) return undefined;
      throw error;
    }
    const content = stored.content;
    let end = Math.min(content.length, offset + limit);
    // Never end a page between the two halves of a surrogate pair.
    if (end < content.length && end > offset && /[\uD800-\uDBFF]/.test(content[end - 1] ?? '')) end -= 1;
    return {
      id,
      toolCallId: stored.toolCallId,
      toolName: '',
      offset,
      content: content.slice(offset, end),
      totalCharacters: content.length,
      nextOffset: end < content.length ? end : null,
    };
  }
}
