import { isRecord } from '../json';
import type { VariationRoll } from './variation-roll';
import { variationKinds, type VariationKind, type VariationSettings } from './variation-settings';
import { findVariationSpots, type AnswerPath, type VariationSpot } from './variation-spots';

/** A varied answer: the text to send instead of the valid JSON, and how it went wrong. */
export interface VariedAnswer {
  readonly kind: VariationKind;
  readonly text: string;
}

/**
 * Turns a valid instance of the request's schema into an invalid answer of one of the allowed kinds,
 * chosen by the roll among those this schema can express (`prose-around-json` always can). Undefined
 * when none of the allowed kinds applies (e.g. only `invalid-enum` allowed and the schema has no enum).
 */
export function varyStructuredAnswer(
  schema: unknown,
  answer: unknown,
  settings: VariationSettings,
  roll: VariationRoll,
): VariedAnswer | undefined {
  const spots = findVariationSpots(schema, answer);
  const allowed = settings.kinds ?? variationKinds;
  const applicable = variationKinds.filter(
    (kind) =>
      allowed.includes(kind) && (kind === 'prose-around-json' || spots.some((spot) => spot.kind === kind)),
  );
  if (applicable.length === 0) return undefined;
  const kind = applicable[roll.kindPick % applicable.length]!;
  if (kind === 'prose-around-json') return { kind, text: proseAround(answer) };
  const ofKind = spots.filter((spot) => spot.kind === kind);
  // A whole answer of the wrong type ("42" for an object) is rarer than one wrong field.
  const nested = ofKind.filter((spot) => spot.path.length > 0);
  const candidates = kind === 'wrong-type' && nested.length > 0 ? nested : ofKind;
  const spot = candidates[roll.spotPick % candidates.length]!;
  return { kind, text: JSON.stringify(applySpot(structuredClone(answer), spot)) };
}

/** What a chatty model sends: the JSON fenced, with a sentence before and after (not parseable). */
function proseAround(answer: unknown): string {
  return [
    'Sure! Here is the JSON you asked for:',
    '',
    '```json',
    JSON.stringify(answer, null, 2),
    '```',
    '',
    'Let me know if you need anything else.',
  ].join('\n');
}

function applySpot(answer: unknown, spot: VariationSpot): unknown {
  switch (spot.kind) {
    case 'invalid-enum':
    case 'wrong-type':
      return replaceAt(answer, spot.path, spot.replacement);
    case 'missing-required': {
      const holder = valueAt(answer, spot.path);
      if (isRecord(holder)) delete holder[spot.property];
      return answer;
    }
  }
}

function valueAt(root: unknown, path: AnswerPath): unknown {
  let node = root;
  for (const step of path) node = (node as Record<string | number, unknown>)[step];
  return node;
}

function replaceAt(root: unknown, path: AnswerPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const parent = valueAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = replacement;
  return root;
}
