import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OfferedTool } from './conversation-facts';
import { toolsMentioned, wordsOf } from './tool-mentions';

const tool = (name: string): OfferedTool => ({ name, description: '', parameters: undefined });
const readToolResult = tool('read_tool_result');

describe('toolsMentioned', () => {
  it('splits snake_case, camelCase and kebab-case names into words', () => {
    expect(wordsOf('read_tool_result')).toEqual(['read', 'tool', 'result']);
    expect(wordsOf('getWeather')).toEqual(['get', 'weather']);
    expect(wordsOf('fetch-page v2')).toEqual(['fetch', 'page', 'v2']);
  });

  it('needs every word of the name, as whole words, in any order and case', () => {
    const tools = [tool('get_weather'), readToolResult];
    expect(toolsMentioned('Get the WEATHER in Paris', tools)).toEqual([tools[0]]);
    expect(toolsMentioned('result of the tool? read it', tools)).toEqual([readToolResult]);
    expect(toolsMentioned('What is the weather?', tools)).toEqual([]);
    expect(toolsMentioned('getting weathers', tools)).toEqual([]);
  });

  it('ignores ordinary conversation for the agent turn’s read_tool_result', () => {
    for (const text of ['Hello!', 'Summarize the result, please', 'Which tool did you use?', 'Read this'])
      expect(toolsMentioned(text, [readToolResult])).toEqual([]);
  });

  it('finds a tool in any message that contains its name’s words among others', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.array(word, { maxLength: 6 }),
        fc.boolean(),
        (nameWords, filler, shout) => {
          const name = nameWords.join('_');
          const message = [...filler, ...[...nameWords].reverse()].join(' ');
          const text = shout ? message.toUpperCase() : message;
          expect(toolsMentioned(text, [tool(name)])).toHaveLength(1);
        },
      ),
    );
  });
});
