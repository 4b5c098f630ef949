import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerTextGate, answerTextPolicyFor, type AnswerTextPolicy } from './answer-text-gate';
import { InvalidModelOutputError } from './json-answer';
import { requestedRootKinds } from './json-root-kinds';

const policy = (fields: Partial<AnswerTextPolicy> = {}): AnswerTextPolicy => ({
  requestedJson: 'json_object',
  rootKinds: requestedRootKinds({ type: 'json_object' }),
  proseMayEndWell: false,
  modelName: 'openai model gpt-test',
  ...fields,
});

/** Cuts text into consecutive pieces at the given (sorted, deduplicated) offsets. */
function split(text: string, cuts: number[]): string[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const offset of [...offsets, text.length]) {
    pieces.push(text.slice(from, offset));
    from = offset;
  }
  return pieces;
}

/** What the gate sends for each piece, in order. */
const feed = (gate: AnswerTextGate, pieces: string[]) => pieces.map((piece) => gate.accept(piece));

const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});
const whitespace = fc.stringMatching(/^[ \t\r\n]{0,4}$/);
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('AnswerTextGate', () => {
  it('passes text through untouched, each delta as it comes, when no JSON was asked for', () => {
    fc.assert(
      fc.property(fc.string(), cuts, (text, at) => {
        const gate = new AnswerTextGate(policy({ requestedJson: undefined }));
        const pieces = split(text, at);
        expect(feed(gate, pieces)).toEqual(pieces);
        expect(gate.finalContent({ text })).toBe('');
      }),
    );
  });

  it('streams a JSON object from the delta that carries its `{`, holding only the whitespace before it', () => {
    fc.assert(
      fc.property(whitespace, jsonObject, whitespace, cuts, (before, value, after, at) => {
        const text = `${before}${JSON.stringify(value, null, 1)}${after}`;
        const pieces = split(text, at);
        const sent = feed(new AnswerTextGate(policy()), pieces);
        const brace = text.indexOf('{');
        let received = 0;
        pieces.forEach((piece, index) => {
          received += piece.length;
          // Everything received is out once the `{` is; nothing is out before.
          expect(sent.slice(0, index + 1).join('')).toBe(received > brace ? text.slice(0, received) : '');
        });
      }),
    );
  });

  it('streams a fenced JSON answer without its fences, holding back only what may be the closing fence', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('```json\n', '```\n', '  ```JSON \r\n'),
        jsonObject,
        fc.constantFrom('\n```', '```', '\n```\n'),
        cuts,
        (opening, value, closing, at) => {
          const inner = JSON.stringify(value);
          const text = `${opening}${inner}${closing}`;
          const gate = new AnswerTextGate(policy());
          const pieces = split(text, at);
          const sent = feed(gate, pieces);
          let received = '';
          pieces.forEach((piece, index) => {
            received += piece;
            const out = sent.slice(0, index + 1).join('');
            // What is out is the inner JSON so far, less only trailing whitespace and backticks.
            const innerSoFar = received.length > opening.length ? received.slice(opening.length) : '';
            expect(innerSoFar.startsWith(out)).toBe(true);
            expect(innerSoFar.slice(out.length)).toMatch(/^[\s`]*$/);
          });
          const streamed = sent.join('') + gate.finalContent({ text, json: value });
          expect(streamed).toBe(inner);
          expect(JSON.parse(streamed)).toEqual(JSON.parse(inner));
        },
      ),
    );
  });

  it('refuses prose under json_object on the delta that shows it, having sent nothing', () => {
    fc.assert(
      fc.property(whitespace, fc.stringMatching(/^[A-Za-z*#<(][\s\S]{0,40}$/), cuts, (before, prose, at) => {
        const text = `${before}${prose}`;
        const gate = new AnswerTextGate(policy());
        const pieces = split(text, at);
        const deciding = pieces.findIndex(
          (_, index) =>
            pieces
              .slice(0, index + 1)
              .join('')
              .trim() !== '',
        );
        for (const piece of pieces.slice(0, deciding)) expect(gate.accept(piece)).toBe('');
        expect(() => gate.accept(pieces[deciding]!)).toThrow(InvalidModelOutputError);
      }),
    );
  });

  it('names the model, the format and the answer’s start in the error', () => {
    const gate = new AnswerTextGate(policy());
    expect(() => gate.accept('Sure! Paris is')).toThrow(
      /^openai model gpt-test did not answer with the JSON object that response_format json_object asks for \(the answer does not start like a JSON object\).*It began: "Sure! Paris is"$/,
    );
  });

  it('refuses what no JSON the schema allows starts with: an array under json_object, an object under an array schema', () => {
    expect(() => new AnswerTextGate(policy()).accept('[1,2]')).toThrow(InvalidModelOutputError);
    const arrays = policy({
      requestedJson: 'json_schema',
      rootKinds: requestedRootKinds({
        type: 'json_schema',
        json_schema: { name: 'list', schema: { type: 'array', items: { type: 'number' } } },
      }),
    });
    expect(new AnswerTextGate(arrays).accept('[1,')).toBe('[1,');
    expect(() => new AnswerTextGate(arrays).accept('{"a":1}')).toThrow(InvalidModelOutputError);
    // A fence with another language is no JSON fence.
    expect(() => new AnswerTextGate(policy()).accept('```python\n{}')).toThrow(InvalidModelOutputError);
  });

  it('holds prose to the end when it may still end as a refusal written as text or a tool call', () => {
    const gate = new AnswerTextGate(policy({ proseMayEndWell: true }));
    expect(feed(gate, ['I cannot ', 'help with that.'])).toEqual(['', '']);
    expect(gate.finalContent({ text: 'I cannot help with that.' })).toBe('I cannot help with that.');
  });

  it('holds a scalar root to the end (tiny; its validation decides) and sends the parsed value', () => {
    const gate = new AnswerTextGate(
      policy({ requestedJson: 'json_schema', rootKinds: new Set(['scalar', 'object']) }),
    );
    expect(feed(gate, [' tr', 'ue '])).toEqual(['', '']);
    expect(gate.finalContent({ text: ' true ', json: true })).toBe('true');
  });

  it('holds everything when the lowering rewrites answers, and sends the restored JSON', () => {
    const gate = new AnswerTextGate(policy({ requestedJson: 'json_schema' }));
    gate.holdToEnd();
    expect(feed(gate, ['{"a":1,', '"b":null}'])).toEqual(['', '']);
    expect(gate.finalContent({ text: '{"a":1,"b":null}', json: { a: 1 } })).toBe('{"a":1}');
  });

  it('sends the held-back tail of a fenced answer that did not parse as the model wrote it', () => {
    const gate = new AnswerTextGate(policy());
    expect(feed(gate, ['```json\n{"a":', '1 ``'])).toEqual(['{"a":', '1']);
    expect(gate.finalContent({ text: '```json\n{"a":1 ``' })).toBe(' ``');
  });
});

describe('answerTextPolicyFor', () => {
  const request = { model: 'm', response_format: { type: 'json_object' as const } };

  it('lets prose wait for the end only where a refusal comes as text or tools may be called', () => {
    expect(answerTextPolicyFor(request, 'openai').proseMayEndWell).toBe(false);
    expect(answerTextPolicyFor(request, 'gemini').proseMayEndWell).toBe(false);
    expect(answerTextPolicyFor(request, 'anthropic').proseMayEndWell).toBe(true);
    const tools = [{ type: 'function' as const, function: { name: 'f' } }];
    expect(answerTextPolicyFor({ ...request, tools }, 'openai').proseMayEndWell).toBe(true);
    expect(answerTextPolicyFor({ ...request, tools, tool_choice: 'none' }, 'gemini').proseMayEndWell).toBe(
      false,
    );
  });

  it('names the provider and model, and the JSON asked for', () => {
    expect(answerTextPolicyFor(request, 'gemini')).toMatchObject({
      requestedJson: 'json_object',
      modelName: 'gemini model m',
    });
    expect(answerTextPolicyFor({ model: 'm' }, 'gemini').requestedJson).toBeUndefined();
  });
});
