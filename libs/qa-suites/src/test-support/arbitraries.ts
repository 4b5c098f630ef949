import { suiteDefinitionSchema, type SuiteDefinition } from '@agentdesk/api-contract';
import fc from 'fast-check';
import { escapePointerToken } from '../assertions/resolve-pointer';

/** Drops keys whose value is undefined, the way a file that omits them reads. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}

/** Text as files carry it: any Unicode (no lone surrogates), plus ASCII control characters. */
export const text = (constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'grapheme', ...constraints }),
    fc.string({ unit: 'binary-ascii', ...constraints }),
  );

/** A JSON value as it survives JSON (no -0, no undefined). */
export const jsonValue: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

export const pointer: fc.Arbitrary<string> = fc
  .array(fc.oneof(text({ maxLength: 6 }), fc.nat({ max: 20 }).map(String)), { maxLength: 3 })
  .map((tokens) => tokens.map((token) => `/${escapePointerToken(token)}`).join(''));

const label = fc.option(text({ minLength: 1, maxLength: 20 }), { nil: undefined });
/** Optional min and max, min never above max (the contract refuses that). */
const orderedBounds = (value: fc.Arbitrary<number>): fc.Arbitrary<{ min?: number; max?: number }> =>
  fc
    .tuple(fc.option(value, { nil: undefined }), fc.option(value, { nil: undefined }))
    .map(([first, second]) =>
      first !== undefined && second !== undefined
        ? { min: Math.min(first, second), max: Math.max(first, second) }
        : withoutUndefined({ min: first, max: second }),
    );

export const assertionInput: fc.Arbitrary<Record<string, unknown>> = fc
  .oneof(
    fc.record({ kind: fc.constant('equals'), pointer, value: jsonValue, label }),
    fc.record({
      kind: fc.constant('one-of'),
      pointer,
      values: fc.array(jsonValue, { minLength: 1, maxLength: 3 }),
      label,
    }),
    fc.record({
      kind: fc.constant('matches'),
      pointer,
      pattern: fc.constantFrom('^[A-Z]{3}$', 'a+b', '\\d{4}-\\d{2}', '.*'),
      flags: fc.option(fc.constantFrom('i', 'm', 'su', ''), { nil: undefined }),
      label,
    }),
    fc
      .record({
        kind: fc.constant('range'),
        pointer,
        bounds: orderedBounds(
          fc
            .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
            .map((n) => (Object.is(n, -0) ? 0 : n)),
        ),
        label,
      })
      .map(({ bounds, ...assertion }) => ({ ...assertion, ...bounds })),
    fc
      .record({ kind: fc.constant('length'), pointer, bounds: orderedBounds(fc.nat({ max: 100 })), label })
      .map(({ bounds, ...assertion }) => ({ ...assertion, ...bounds })),
    fc.record({ kind: fc.constant('latency'), maxMs: fc.integer({ min: 1, max: 600_000 }), label }),
    fc.record({ kind: fc.constant('cost'), maxUsd: fc.double({ min: 1e-6, max: 100, noNaN: true }), label }),
    fc.record({ kind: fc.constant('javascript'), code: text({ minLength: 1, maxLength: 40 }), label }),
  )
  .map(withoutUndefined);

const message = fc.record({
  role: fc.constantFrom('system', 'user', 'assistant'),
  content: text({ minLength: 1, maxLength: 40 }),
});

const caseInput = (id: string): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .record({
      id: fc.constant(id),
      description: fc.option(text({ maxLength: 40 }), { nil: undefined }),
      systemPrompt: fc.option(text({ maxLength: 40 }), { nil: undefined }),
      input: fc.oneof(
        text({ minLength: 1, maxLength: 80 }).map((prompt) => ({ prompt })),
        fc.array(message, { minLength: 1, maxLength: 3 }).map((messages) => ({ messages })),
      ),
      schema: fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 4 }),
      assertions: fc.option(fc.array(assertionInput, { maxLength: 4 }), { nil: undefined }),
    })
    .map(({ input, ...rest }) => withoutUndefined({ ...rest, ...input }));

const targetInput = fc
  .record({
    model: fc.constantFrom('gpt-4o', 'claude-sonnet-4', 'gemini-2.5-flash', 'emulator/a'),
    label: fc.option(text({ minLength: 1, maxLength: 12 }), { nil: undefined }),
    strict: fc.option(fc.boolean(), { nil: undefined }),
    temperature: fc.option(
      fc.double({ min: 0, max: 2, noNaN: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
      { nil: undefined },
    ),
    maxTokens: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
  })
  .map(withoutUndefined);

/** Suite file contents (before defaults), valid against the contract. */
export const suiteDefinitionInput: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    name: text({ minLength: 1, maxLength: 30 }).filter((name) => name.trim().length > 0),
    description: fc.option(text({ maxLength: 60 }), { nil: undefined }),
    targets: fc.uniqueArray(targetInput, {
      minLength: 1,
      maxLength: 4,
      selector: (target) => target['label'] ?? target['model'],
    }),
    timeoutMs: fc.option(fc.integer({ min: 1_000, max: 600_000 }), { nil: undefined }),
    caseIds: fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,12}$/), {
      minLength: 1,
      maxLength: 4,
    }),
  })
  .chain(({ caseIds, ...suite }) =>
    fc.tuple(...caseIds.map(caseInput)).map((cases) => withoutUndefined({ ...suite, cases })),
  );

/** Definitions as parsing leaves them (defaults filled in). */
export const suiteDefinition: fc.Arbitrary<SuiteDefinition> = suiteDefinitionInput
  .map((input) => suiteDefinitionSchema.safeParse(input))
  .filter((parsed) => parsed.success)
  .map((parsed) => parsed.data!);
