import type { SuiteAssertion } from '@agentdesk/api-contract';
import { assertNever } from './assert-never';
import type { CellOutput } from './cell-output';
import { jsonTypeName, previewJson } from './describe-value';
import { jsonEqual } from './json-equal';
import { resolvePointer } from './resolve-pointer';

/** A judgement: true/false, or null when it cannot be judged; the message says why it failed. */
export interface Judgement {
  passed: boolean | null;
  message: string | null;
}

const PASS: Judgement = { passed: true, message: null };

function fail(message: string): Judgement {
  return { passed: false, message };
}

function within(value: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

/** Float noise (0.57 * 1e6 = 569999.99…) must not fail a cost that is exactly the ceiling. */
function usdToMicros(usd: number): number {
  return Math.round(usd * 1_000_000 * 1_000) / 1_000;
}

type PointerAssertion = Extract<SuiteAssertion, { pointer: string }>;

function judgeAtPointer(assertion: PointerAssertion, value: unknown): Judgement {
  switch (assertion.kind) {
    case 'equals':
      return jsonEqual(value, assertion.value) ? PASS : fail(`got ${previewJson(value)}`);
    case 'one-of':
      return assertion.values.some((candidate) => jsonEqual(value, candidate))
        ? PASS
        : fail(`got ${previewJson(value)}`);
    case 'matches': {
      if (typeof value !== 'string') return fail(`${jsonTypeName(value)}, not a string`);
      let pattern: RegExp;
      try {
        pattern = new RegExp(assertion.pattern, assertion.flags ?? '');
      } catch (error) {
        return fail(
          `the pattern is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return pattern.test(value) ? PASS : fail(`got ${previewJson(value)}`);
    }
    case 'range':
      if (typeof value !== 'number') return fail(`${jsonTypeName(value)}, not a number`);
      return within(value, assertion.min, assertion.max) ? PASS : fail(`got ${value}`);
    case 'length': {
      if (typeof value !== 'string' && !Array.isArray(value))
        return fail(`${jsonTypeName(value)}, not an array or a string`);
      return within(value.length, assertion.min, assertion.max) ? PASS : fail(`length ${value.length}`);
    }
    default:
      return assertNever(assertion);
  }
}

/**
 * Judges one non-JavaScript assertion against a cell's output that did not fail. `answerIsJson`
 * false: the answer did not parse, so nothing can be found at any pointer.
 */
export function judgeAssertion(
  assertion: Exclude<SuiteAssertion, { kind: 'javascript' }>,
  output: CellOutput,
  answerIsJson: boolean,
): Judgement {
  switch (assertion.kind) {
    case 'latency':
      return output.latencyMs <= assertion.maxMs ? PASS : fail(`took ${output.latencyMs} ms`);
    case 'cost':
      if (output.costMicros === null) return { passed: null, message: 'the model has no price' };
      return output.costMicros <= usdToMicros(assertion.maxUsd)
        ? PASS
        : fail(`cost $${output.costMicros / 1_000_000}`);
    case 'equals':
    case 'one-of':
    case 'matches':
    case 'range':
    case 'length': {
      if (!answerIsJson) return fail('the answer is not JSON');
      const found = resolvePointer(output.json, assertion.pointer);
      if (!found.found) return fail(`nothing at ${assertion.pointer}`);
      return judgeAtPointer(assertion, found.value);
    }
    default:
      return assertNever(assertion);
  }
}
