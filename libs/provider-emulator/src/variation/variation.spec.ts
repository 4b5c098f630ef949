import { describe, expect, it } from 'vitest';
import { jsonFromSchema } from '../json-from-schema';
import { rollVariation } from './variation-roll';
import { parseVariationSettings, rateFor, type VariationKind } from './variation-settings';
import { findVariationSpots } from './variation-spots';
import { varyStructuredAnswer } from './vary-structured-answer';

const invoice = {
  type: 'object',
  properties: {
    vendor: { type: 'string' },
    total: { type: 'number' },
    currency: { type: 'string', enum: ['usd', 'eur'] },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, quantity: { type: 'integer' } },
        required: ['sku', 'quantity'],
        additionalProperties: false,
      },
    },
    note: { type: ['string', 'null'] },
  },
  required: ['vendor', 'total', 'currency', 'lines', 'note'],
  additionalProperties: false,
} as const;

describe('variation settings', () => {
  it('takes the model’s rate, else the default, else 0', () => {
    const settings = parseVariationSettings({ seed: 1, rates: { default: 0.1, 'gpt-4o-mini': 0.2 } });
    expect(rateFor(settings, 'gpt-4o-mini')).toBe(0.2);
    expect(rateFor(settings, 'claude-3-5-haiku')).toBe(0.1);
    expect(rateFor(parseVariationSettings({ seed: 's', rates: { 'gpt-4o': 1 } }), 'other')).toBe(0);
  });

  it.each([
    [{ seed: 1, rates: { default: 1.5 } }, 'rates.default'],
    [{ seed: 1.5, rates: {} }, 'seed'],
    [{ seed: 1, rates: {}, kinds: ['typo'] }, 'kinds.0'],
    [{ seed: 1, rates: {}, extra: true }, 'variation'],
  ])('refuses %j, naming %s', (value, field) => {
    expect(() => parseVariationSettings(value)).toThrow(
      new RegExp(`^invalid variation settings: ${field.replace('.', '\\.')}`),
    );
  });
});

describe('rolling', () => {
  it('is a pure function of seed, model and body', () => {
    const settings = parseVariationSettings({ seed: 'a', rates: { default: 0.5 } });
    const bodies = Array.from({ length: 200 }, (_, index) => `{"n":${index}}`);
    const rolls = bodies.map((body) => rollVariation(settings, 'm', body));
    expect(bodies.map((body) => rollVariation(settings, 'm', body))).toEqual(rolls);
    const varied = rolls.filter((roll) => roll !== undefined).length;
    // 200 fair coin flips: far outside 50–150 only with probability below 1e-12.
    expect(varied).toBeGreaterThan(50);
    expect(varied).toBeLessThan(150);
    const otherSeed = parseVariationSettings({ seed: 'b', rates: { default: 0.5 } });
    expect(bodies.map((body) => rollVariation(otherSeed, 'm', body))).not.toEqual(rolls);
    expect(bodies.map((body) => rollVariation(settings, 'n', body))).not.toEqual(rolls);
  });

  it('never varies at rate 0 and always at rate 1', () => {
    const never = parseVariationSettings({ seed: 3, rates: { default: 0 } });
    const always = parseVariationSettings({ seed: 3, rates: { default: 1 } });
    for (let index = 0; index < 100; index += 1) {
      expect(rollVariation(never, 'm', String(index))).toBeUndefined();
      expect(rollVariation(always, 'm', String(index))).toBeDefined();
    }
  });
});

describe('varying an answer', () => {
  const valid = jsonFromSchema(invoice) as Record<string, unknown>;
  const settingsOf = (kind: VariationKind) =>
    parseVariationSettings({ seed: 1, rates: { default: 1 }, kinds: [kind] });

  it('finds the spots of each kind, never a nullable property for missing-required', () => {
    const spots = findVariationSpots(invoice, valid);
    expect(
      spots.filter((spot) => spot.kind === 'missing-required').map((spot) => [spot.path, spot.property]),
    ).toEqual([
      [[], 'vendor'],
      [[], 'total'],
      [[], 'currency'],
      [[], 'lines'],
      [['lines', 0], 'sku'],
      [['lines', 0], 'quantity'],
    ]);
    expect(spots.filter((spot) => spot.kind === 'invalid-enum')).toEqual([
      { kind: 'invalid-enum', path: ['currency'], replacement: 'USD' },
    ]);
  });

  it('invalid-enum puts a near miss in place of the enum value', () => {
    const varied = varyStructuredAnswer(invoice, valid, settingsOf('invalid-enum'), {
      kindPick: 7,
      spotPick: 3,
    });
    expect(varied?.kind).toBe('invalid-enum');
    expect(JSON.parse(varied!.text)).toEqual({ ...valid, currency: 'USD' });
  });

  it('missing-required leaves out the picked property, and only that one', () => {
    const varied = varyStructuredAnswer(invoice, valid, settingsOf('missing-required'), {
      kindPick: 0,
      spotPick: 4,
    });
    const lines = valid.lines as Record<string, unknown>[];
    const { sku: _left, ...rest } = lines[0]!;
    expect(JSON.parse(varied!.text)).toEqual({ ...valid, lines: [rest, ...lines.slice(1)] });
  });

  it('wrong-type prefers a field over the whole answer', () => {
    const varied = varyStructuredAnswer(invoice, valid, settingsOf('wrong-type'), {
      kindPick: 0,
      spotPick: 0,
    });
    const answer = JSON.parse(varied!.text) as unknown;
    expect(answer).toEqual(expect.objectContaining({ vendor: 42 }));
  });

  it('prose-around-json keeps the JSON in a fenced block that no longer parses', () => {
    const varied = varyStructuredAnswer(invoice, valid, settingsOf('prose-around-json'), {
      kindPick: 5,
      spotPick: 5,
    });
    expect(varied?.text).toContain('```json\n');
    expect(varied?.text).toContain(JSON.stringify(valid, null, 2));
    expect(() => JSON.parse(varied!.text)).toThrow();
  });

  it('skips kinds the schema cannot express, and gives up when none is left', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } } };
    const enumOnly = parseVariationSettings({ seed: 1, rates: { default: 1 }, kinds: ['invalid-enum'] });
    expect(
      varyStructuredAnswer(plain, jsonFromSchema(plain), enumOnly, { kindPick: 0, spotPick: 0 }),
    ).toBeUndefined();
  });

  it('follows local $refs and Gemini’s upper-case types', () => {
    const withRef = {
      type: 'OBJECT',
      properties: { level: { $ref: '#/$defs/level' } },
      required: ['level'],
      $defs: { level: { type: 'STRING', enum: ['low', 'high'] } },
    };
    const spots = findVariationSpots(withRef, { level: 'low' });
    expect(spots).toContainEqual({ kind: 'invalid-enum', path: ['level'], replacement: 'LOW' });
    expect(spots).toContainEqual({ kind: 'wrong-type', path: ['level'], replacement: 42 });
    expect(spots).toContainEqual({ kind: 'missing-required', path: [], property: 'level' });
  });
});
