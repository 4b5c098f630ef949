import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../types';
import { RequestRecorder } from './request-recorder';

const request = (index: number, provider: RecordedRequest['provider'] = 'openai'): RecordedRequest => ({
  provider,
  method: 'POST',
  path: `/${index}`,
  query: {},
  headers: {},
  body: null,
  model: undefined,
  stream: false,
  requestId: String(index),
  receivedAt: index,
});

describe('RequestRecorder', () => {
  it('keeps the newest records in arrival order once it wraps', () => {
    const recorder = new RequestRecorder(3);
    for (let index = 1; index <= 7; index++)
      recorder.record(request(index, index === 5 ? 'gemini' : 'openai'));
    expect(recorder.all().map((record) => record.requestId)).toEqual(['5', '6', '7']);
    expect(recorder.last()?.requestId).toBe('7');
    expect(recorder.last('gemini')?.requestId).toBe('5');
    expect(recorder.last('anthropic')).toBeUndefined();
  });

  it('records nothing with capacity 0', () => {
    const recorder = new RequestRecorder(0);
    recorder.record(request(1));
    expect(recorder.all()).toEqual([]);
    expect(recorder.last()).toBeUndefined();
  });
});
