import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  choiceField,
  dayField,
  flagField,
  inParam,
  patternField,
  textField,
  withFallback,
} from './query-field';

describe('the fields a page’s URL is made of', () => {
  it('text reads and writes itself', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        expect(textField().read(text)).toEqual({ kind: 'value', value: text });
        expect(textField().write(text)).toBe(text);
      }),
    );
  });

  it('a choice takes one of its words, and names the field of anything else without quoting it', () => {
    const status = choiceField(['open', 'closed'], 'Status must be open or closed.');
    expect(status.read('open')).toEqual({ kind: 'value', value: 'open' });
    expect(status.read('Open')).toEqual({ kind: 'problem', problem: 'Status must be open or closed.' });
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        // The problem's words are fixed, whatever the URL held.
        expect(status.read(`${text}!`)).toEqual({
          kind: 'problem',
          problem: 'Status must be open or closed.',
        });
      }),
    );
  });

  it('a pattern drops anything not of its shape, silently', () => {
    const id = patternField(/^[0-9a-f]{4}$/);
    expect(id.read('beef')).toEqual({ kind: 'value', value: 'beef' });
    expect(id.read('alice')).toEqual({ kind: 'ignored' });
  });

  it('a flag is on for its word only, off otherwise, and off is not written', () => {
    const ended = flagField('include');
    expect(ended.fallback).toBe(false);
    expect(ended.read('include')).toEqual({ kind: 'value', value: true });
    expect(ended.read('yes')).toEqual({ kind: 'ignored' });
    expect(ended.write(true)).toBe('include');
    expect(ended.write(false)).toBeUndefined();
  });

  it('a day is a calendar day; the problem names the form’s label, not the value', () => {
    const from = dayField('Created from');
    expect(from.read('2026-02-28')).toEqual({ kind: 'value', value: '2026-02-28' });
    expect(from.read('2026-02-30')).toEqual({
      kind: 'problem',
      problem: 'Created from must be a date like 2026-01-31.',
    });
  });

  it('renaming the parameter or adding a fallback keeps how the value is read', () => {
    const user = inParam('user', textField());
    expect(user.param).toBe('user');
    expect(user.read('u1')).toEqual({ kind: 'value', value: 'u1' });
    const groupBy = withFallback(choiceField(['model', 'user'], 'Group by…'), 'model');
    expect(groupBy.fallback).toBe('model');
    expect(groupBy.read('user')).toEqual({ kind: 'value', value: 'user' });
  });
});
