import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemoryToolResultStore } from '@agentdesk/compressor';
import type { ToolContext } from './agent-tool';
import { defineTool } from './define-tool';
import { ToolRegistry } from './tool-registry';
import { builtInTools } from './read-tool-result-tool';

const context: ToolContext = {
  ownerUserId: 'u1',
  sessionId: 's1',
  toolResults: new InMemoryToolResultStore(),
  signal: new AbortController().signal,
};

const echo = defineTool({
  name: 'echo',
  description: 'Repeats a text a number of times',
  arguments: z.object({ text: z.string().min(1), times: z.number().int().min(1).max(3).default(1) }).strict(),
  execute: async ({ text, times }) => ({ content: text.repeat(times), isError: false }),
});

describe('defineTool', () => {
  it('derives the JSON Schema the model sees from the zod schema', () => {
    expect(echo.definition).toEqual({
      name: 'echo',
      description: 'Repeats a text a number of times',
      parameters: {
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 1 },
          times: { type: 'integer', minimum: 1, maximum: 3, default: 1 },
        },
        required: ['text'],
        additionalProperties: false,
      },
    });
  });

  it('runs with validated, defaulted arguments', async () => {
    expect(await echo.execute('{"text":"ab","times":2}', context)).toEqual({
      content: 'abab',
      isError: false,
    });
    expect(await echo.execute('{"text":"x"}', context)).toEqual({ content: 'x', isError: false });
  });

  it.each([
    ['not JSON', '{"text":', 'not valid JSON'],
    ['a missing field', '{}', 'text:'],
    ['a wrong type', '{"text":5}', 'text:'],
    ['an out-of-range number', '{"text":"a","times":9}', 'times:'],
    ['an unknown field', '{"text":"a","extra":1}', 'extra'],
  ])('answers %s with an error result naming the problem', async (_case, argumentsText, mention) => {
    const output = await echo.execute(argumentsText, context);
    expect(output.isError).toBe(true);
    expect(output.content).toContain('echo: ');
    expect(output.content).toContain(mention);
  });

  it('never throws on any arguments text: the model always gets a result', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), async (argumentsText) => {
        const output = await echo.execute(argumentsText, context);
        expect(typeof output.content).toBe('string');
      }),
    );
  });
});

describe('ToolRegistry', () => {
  it('lists definitions, runs by name and answers an unknown name with an error result', async () => {
    const registry = new ToolRegistry([...builtInTools(), echo]);
    expect(registry.definitions().map((definition) => definition.name)).toEqual(['read_tool_result', 'echo']);
    expect(await registry.execute('echo', '{"text":"hi"}', context)).toEqual({
      content: 'hi',
      isError: false,
    });
    expect(await registry.execute('nope', '{}', context)).toEqual({
      content: 'Unknown tool "nope". Available tools: read_tool_result, echo.',
      isError: true,
    });
  });

  it('refuses two tools with one name', () => {
    expect(() => new ToolRegistry([echo, echo])).toThrow('Two tools are named echo');
  });
});
