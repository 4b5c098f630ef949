import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderEmulator, type ProviderEmulator } from '@agentdesk/provider-emulator';
import { sqliteTestDatabase, type TestDatabase } from '@agentdesk/storage/testing';
import { builtInTools, ToolRegistry, type AgentTool } from '@agentdesk/agent-tools';
import { ModelRouter } from '../../model-access/model-router';
import { readModelRoutingSettings } from '../../config/provider-settings';
import { AgentTurnRunner } from './agent-turn-runner';
import { storedMessageTokens } from './stored-message-tokens';
import { storedMessagesToChat, transcriptEntryOf } from './stored-messages';
import { defaultTurnSettings } from '../../config/turn-settings';

const echoTool: AgentTool = {
  definition: {
    name: 'echo',
    description: 'Echoes its text',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
  execute: async (argumentsJson) => ({ content: `echo: ${JSON.stringify(argumentsJson)}`, isError: false }),
};

let emulator: ProviderEmulator;
let database: TestDatabase;
let runner: AgentTurnRunner;

beforeAll(async () => {
  emulator = await startProviderEmulator();
  database = await sqliteTestDatabase();
  const environment = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: emulator.openaiBaseUrl };
  runner = new AgentTurnRunner({
    repositories: database.repositories,
    router: new ModelRouter(readModelRoutingSettings(environment)),
    tools: new ToolRegistry([...builtInTools(), echoTool]),
    settings: { ...defaultTurnSettings, summarize: false },
  });
});
afterAll(async () => {
  await emulator.close();
  await database.cleanup();
});

/** What one turn of the model does: answer, call the tool first, or fail. */
const modelBehaviour = fc.record({
  kind: fc.constantFrom('text' as const, 'tool-then-text' as const, 'error' as const),
  text: fc.oneof(fc.string({ maxLength: 60 }), fc.constant('<|endoftext|> and 🧪')),
});

describe('stored token counts', () => {
  it('property: every message a turn writes stores the count of its stored content; the next turn sends the same history as the whole transcript', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ user: fc.string({ minLength: 1, maxLength: 60 }), model: modelBehaviour }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (turns) => {
          emulator.reset();
          const owner = await database.repositories.users.create({ externalId: `u-${Math.random()}` });
          const session = await database.repositories.sessions.create({
            ownerUserId: owner.id,
            model: 'gpt-test',
          });
          for (const turn of turns) {
            if (turn.model.kind === 'text') emulator.script({ kind: 'text', text: turn.model.text });
            else if (turn.model.kind === 'error')
              emulator.script({ kind: 'error', status: 400, message: 'bad request' });
            else
              emulator.script(
                { kind: 'tool-calls', toolCalls: [{ name: 'echo', arguments: { text: turn.model.text } }] },
                { kind: 'text', text: turn.model.text },
              );
            await runner.run(
              {
                ownerUserId: owner.id,
                sessionId: session.id,
                content: turn.user,
                signal: new AbortController().signal,
                stream: false,
              },
              () => undefined,
            );
          }
          const stored = (
            await database.repositories.transcript.listMessagesForOwner(owner.id, session.id, { limit: 500 })
          ).items;
          expect(stored.length).toBeGreaterThanOrEqual(2 * turns.length);
          for (const message of stored) expect(message.tokenCount).toBe(storedMessageTokens(message));

          emulator.script({ kind: 'text', text: 'last' });
          await runner.run(
            {
              ownerUserId: owner.id,
              sessionId: session.id,
              content: 'and now?',
              signal: new AbortController().signal,
              stream: false,
            },
            () => undefined,
          );
          const sent = emulator.lastRequest()?.body as {
            messages: Array<{ role: string; tool_call_id?: string }>;
          };
          const expectedHistory = storedMessagesToChat(stored.map(transcriptEntryOf));
          // The history (no system prompt in this session), then the new user message.
          expect(sent.messages.map((message) => [message.role, message.tool_call_id])).toEqual([
            ...expectedHistory.map((message) => [
              message.role,
              message.role === 'tool' ? message.toolCallId : undefined,
            ]),
            ['user', undefined],
          ]);
        },
      ),
      { numRuns: 15 },
    );
  });
});
