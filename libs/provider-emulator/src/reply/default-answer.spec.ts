import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  plainConversation,
  type ConversationFacts,
  type OfferedTool,
  type ToolChoiceRequest,
} from '../conversation/conversation-facts';
import { defaultAnswer, defaultReplyText } from './default-answer';

const tools: OfferedTool[] = ['alpha_tool', 'beta_tool', 'gamma_tool'].map((name) => ({
  name,
  description: `The ${name}`,
  parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 3 } }, required: ['n'] },
}));

const choiceArbitrary: fc.Arbitrary<ToolChoiceRequest> = fc.oneof(
  fc.constant({ kind: 'auto' as const }),
  fc.constant({ kind: 'none' as const }),
  fc
    .option(
      fc.subarray(
        tools.map((tool) => tool.name),
        { minLength: 1 },
      ),
      { nil: undefined },
    )
    .map((allowed) => ({ kind: 'any' as const, allowed })),
  fc.constantFrom(...tools).map((tool) => ({ kind: 'tool' as const, name: tool.name })),
);

const conversationArbitrary: fc.Arbitrary<ConversationFacts> = fc.record({
  tools: fc.constant(tools),
  toolChoice: choiceArbitrary,
  parallelToolCalls: fc.boolean(),
  lastTurn: fc.oneof(
    fc.string().map((text) => ({ kind: 'user' as const, text })),
    fc
      .constantFrom('alpha tool', 'beta tool and gamma tool')
      .map((text) => ({ kind: 'user' as const, text })),
    fc.constant<ConversationFacts['lastTurn']>({
      kind: 'tool-results',
      results: [{ name: 'alpha_tool', content: '42' }],
    }),
  ),
  instructions: fc.constant(''),
});

describe('defaultAnswer', () => {
  it('obeys the tool choice: none never calls, any and tool always do, within what is allowed', () => {
    fc.assert(
      fc.property(conversationArbitrary, (conversation) => {
        const answer = defaultAnswer({ kind: 'none' }, conversation);
        const called = answer.kind === 'tool-calls' ? answer.toolCalls.map((call) => call.name) : [];
        const choice = conversation.toolChoice;
        if (choice.kind === 'none') expect(called).toEqual([]);
        if (choice.kind === 'tool') expect(called).toEqual([choice.name]);
        if (choice.kind === 'any') {
          expect(called.length).toBeGreaterThan(0);
          for (const name of called) expect(choice.allowed ?? tools.map((tool) => tool.name)).toContain(name);
        }
        if (!conversation.parallelToolCalls) expect(called.length).toBeLessThanOrEqual(1);
        if (choice.kind === 'auto' && conversation.lastTurn.kind === 'tool-results')
          expect(called).toEqual([]);
        for (const call of answer.kind === 'tool-calls' ? answer.toolCalls : [])
          expect(call.arguments.n).toBeGreaterThanOrEqual(3);
        // Deterministic: the same facts give the same answer.
        expect(defaultAnswer({ kind: 'none' }, conversation)).toEqual(answer);
      }),
    );
  });

  it('passes the user’s quoted code to the first required free-text parameter, nowhere else', () => {
    const runCommand: OfferedTool = {
      name: 'run_command',
      description: 'Runs a shell command',
      parameters: {
        type: 'object',
        properties: {
          mode: { type: 'string', enum: ['fast', 'safe'] },
          timeout_seconds: { type: 'integer', minimum: 1 },
          command: { type: 'string', minLength: 1, maxLength: 40 },
        },
        required: ['mode', 'timeout_seconds', 'command'],
      },
    };
    const ask = (text: string) =>
      defaultAnswer(
        { kind: 'none' },
        { ...plainConversation, tools: [runCommand], lastTurn: { kind: 'user', text } },
      );
    const called = ask('Please use run_command to run `ls -la /workspace` for me');
    expect(called).toMatchObject({
      kind: 'tool-calls',
      toolCalls: [{ name: 'run_command', arguments: { mode: 'fast', command: 'ls -la /workspace' } }],
    });
    // Too long for the parameter: the schema's own example stays.
    const tooLong = ask(`run_command: \`${'x'.repeat(41)}\``);
    expect(tooLong.kind === 'tool-calls' && tooLong.toolCalls[0]?.arguments['command']).not.toContain('xxx');
    // Nothing quoted: the schema's example.
    const plain = ask('run_command please');
    expect(plain.kind === 'tool-calls' && typeof plain.toolCalls[0]?.arguments['command']).toBe('string');
  });

  it('answers JSON when asked natively or by instruction, text otherwise', () => {
    expect(defaultAnswer({ kind: 'object' }, plainConversation)).toEqual({ kind: 'json' });
    expect(
      defaultAnswer({ kind: 'none' }, { ...plainConversation, instructions: 'Always return valid JSON.' }),
    ).toEqual({ kind: 'json' });
    expect(
      defaultAnswer({ kind: 'none' }, { ...plainConversation, instructions: 'You are an expert on JSON.' }),
    ).toEqual({ kind: 'text', text: defaultReplyText });
  });

  it('quotes tool results, cut to a readable length', () => {
    const answer = defaultAnswer(
      { kind: 'none' },
      {
        ...plainConversation,
        lastTurn: { kind: 'tool-results', results: [{ name: 'x', content: 'y'.repeat(500) }] },
      },
    );
    expect(answer).toEqual({
      kind: 'text',
      text: `Here is what the tool result says: x returned ${'y'.repeat(200)}…`,
    });
  });
});
