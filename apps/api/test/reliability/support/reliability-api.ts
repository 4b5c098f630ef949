import type { ScriptedReply } from '@agentdesk/provider-emulator';
import type { MessageJson } from '@agentdesk/api-contract';
import type { User } from '@agentdesk/storage';
import { createLocalUser, issueUserKey, type IssuedKey } from '../../support/fixtures';
import { startTestApi, type InjectResponse, type TestApi } from '../../support/test-api';

/** One Server-Sent Event of a streamed turn. */
export interface SseEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/** Splits an SSE body into its events (`event:` name and the JSON `data:` line). */
export function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

/** How a turn was requested: one JSON answer, or SSE events. */
export type TurnMode = 'json' | 'sse';

/** The HTTP outcome of one `POST /v1/sessions/:id/messages`. */
export interface TurnResponse {
  readonly statusCode: number;
  readonly response: InjectResponse;
  /** SSE events (empty for JSON answers). */
  readonly events: SseEvent[];
}

/** A test API on SQLite with one user, their key, and helpers to run turns and read transcripts back. */
export interface ReliabilityApi {
  readonly test: TestApi;
  readonly user: User;
  readonly key: IssuedKey;
  /** `POST /v1/sessions` with a model; returns the session id. */
  createSession(model: string, label?: string): Promise<string>;
  /** Queues emulator replies. */
  script(...replies: ScriptedReply[]): void;
  /** Sends one user message; `sse` asks for `text/event-stream`. */
  send(sessionId: string, content: string, mode: TurnMode): Promise<TurnResponse>;
  /** The whole transcript through `GET /v1/sessions/:id/messages`, every page. */
  transcript(sessionId: string): Promise<MessageJson[]>;
  close(): Promise<void>;
}

/** Starts a SQLite test API wired to its own provider emulator, with a user `reliability`. */
export async function startReliabilityApi(environment: Record<string, string> = {}): Promise<ReliabilityApi> {
  const test = await startTestApi('sqlite', { LOG_LEVEL: 'warn', ...environment });
  const user = await createLocalUser(test.api.repositories, 'reliability');
  const key = await issueUserKey(test.api.repositories, user);
  return {
    test,
    user,
    key,
    async createSession(model, label = `session on ${model}`) {
      const response = await test.request({
        method: 'POST',
        url: '/v1/sessions',
        key: key.key,
        body: { label, model },
      });
      if (response.statusCode !== 201)
        throw new Error(`creating a session failed: ${response.statusCode} ${response.body}`);
      return (response.json() as { id: string }).id;
    },
    script: (...replies) => test.emulator.script(...replies),
    async send(sessionId, content, mode) {
      const response = await test.request({
        method: 'POST',
        url: `/v1/sessions/${sessionId}/messages`,
        key: key.key,
        body: { content },
        headers: mode === 'sse' ? { accept: 'text/event-stream' } : {},
      });
      const streamed = (response.headers['content-type'] ?? '').toString().includes('text/event-stream');
      return { statusCode: response.statusCode, response, events: streamed ? parseSse(response.body) : [] };
    },
    async transcript(sessionId) {
      const messages: MessageJson[] = [];
      let cursor: string | null = null;
      do {
        const query: string =
          cursor === null ? '?limit=500' : `?limit=500&cursor=${encodeURIComponent(cursor)}`;
        const response = await test.request({
          method: 'GET',
          url: `/v1/sessions/${sessionId}/messages${query}`,
          key: key.key,
        });
        if (response.statusCode !== 200)
          throw new Error(`reading the transcript failed: ${response.statusCode} ${response.body}`);
        const page = response.json() as { items: MessageJson[]; nextCursor: string | null };
        messages.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return messages;
    },
    close: () => test.close(),
  };
}
