import { describe, expect, it } from 'vitest';
import {
  createReadToolResultExecutor,
  createReadToolResultTool,
  readToolResultTool,
} from './read-tool-result-tool';
import { InMemoryToolResultStore } from './tool-result-store';

describe('read_tool_result', () => {
  it('is defined as read_tool_result(id, offset, limit) with a strict schema', () => {
    expect(readToolResultTool.name).toBe('read_tool_result');
    expect(readToolResultTool.parameters).toMatchObject({
      type: 'object',
      required: ['id', 'offset', 'limit'],
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1, maximum: 16_000 },
      },
    });
    expect(createReadToolResultTool(500).parameters).toMatchObject({
      properties: { limit: { maximum: 500 } },
    });
  });

  it('returns a page with a header giving the range, the total and the next offset', async () => {
    const store = new InMemoryToolResultStore({ createId: () => 'tr_1' });
    await store.put({ toolCallId: 'c1', toolName: 'sql', content: 'line 1\nline 2\nline 3\n' });
    const execute = createReadToolResultExecutor(store);
    expect(await execute('{"id":"tr_1","offset":0,"limit":7}')).toEqual({
      content: '[read_tool_result "tr_1" (sql): characters 0–7 of 21; next offset: 7]\nline 1\n',
      isError: false,
    });
    expect(await execute({ id: 'tr_1', offset: 14, limit: 100 })).toEqual({
      content: '[read_tool_result "tr_1" (sql): characters 14–21 of 21; end of result]\nline 3\n',
      isError: false,
    });
  });

  it('clamps the page to the configured maximum', async () => {
    const store = new InMemoryToolResultStore({ createId: () => 'tr_1' });
    await store.put({ toolCallId: 'c1', toolName: 'sql', content: 'z'.repeat(100) });
    const result = await createReadToolResultExecutor(store, { maxLimit: 10 })({
      id: 'tr_1',
      offset: 0,
      limit: 1000,
    });
    expect(result.content.split('\n')[1]).toBe('z'.repeat(10));
  });

  it('answers bad arguments and unknown ids with an error result, not an exception', async () => {
    const execute = createReadToolResultExecutor(new InMemoryToolResultStore());
    expect(await execute('not json')).toMatchObject({
      isError: true,
      content: expect.stringContaining('not valid JSON'),
    });
    expect(await execute({ id: 'x', offset: -1, limit: 5 })).toMatchObject({
      isError: true,
      content: expect.stringContaining('offset'),
    });
    expect(await execute({ id: 'x', offset: 0, limit: 5, extra: true })).toMatchObject({ isError: true });
    expect(await execute({ id: 'tr_missing', offset: 0, limit: 5 })).toMatchObject({
      isError: true,
      content: expect.stringContaining('unknown id "tr_missing"'),
    });
  });

  it('speaks French when asked', async () => {
    const store = new InMemoryToolResultStore({ createId: () => 'tr_1' });
    await store.put({ toolCallId: 'c1', toolName: 'sql', content: 'abc' });
    const execute = createReadToolResultExecutor(store, { language: 'fr' });
    expect((await execute({ id: 'tr_1', offset: 0, limit: 2 })).content).toContain(
      'caractères 0–2 sur 3 ; offset suivant : 2',
    );
    expect((await execute({ id: 'nope', offset: 0, limit: 2 })).content).toContain('Erreur read_tool_result');
  });
});
