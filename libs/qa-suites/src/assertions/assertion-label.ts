import type { SuiteAssertion } from '@agentdesk/api-contract';
import { assertNever } from './assert-never';
import { pointerSubject, previewJson } from './describe-value';

/** The label of the always-checked schema assertion. */
export const SCHEMA_ASSERTION_LABEL = 'valid against the schema';

const CODE_PREVIEW_CHARACTERS = 60;

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `within [${min}, ${max}]`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return 'any';
}

function codePreview(code: string): string {
  const firstLine = code.trim().split('\n')[0] ?? '';
  return firstLine.length > CODE_PREVIEW_CHARACTERS
    ? `${firstLine.slice(0, CODE_PREVIEW_CHARACTERS - 1)}…`
    : firstLine;
}

/** What an assertion checks, in words: its own label, else a description ("/total equals 12.5"). */
export function assertionLabel(assertion: SuiteAssertion): string {
  if (assertion.label !== undefined) return assertion.label;
  switch (assertion.kind) {
    case 'equals':
      return `${pointerSubject(assertion.pointer)} equals ${previewJson(assertion.value)}`;
    case 'one-of':
      return `${pointerSubject(assertion.pointer)} is one of ${assertion.values.map(previewJson).join(', ')}`;
    case 'matches':
      return `${pointerSubject(assertion.pointer)} matches /${assertion.pattern}/${assertion.flags ?? ''}`;
    case 'range':
      return assertion.min === undefined && assertion.max === undefined
        ? `${pointerSubject(assertion.pointer)} is a number`
        : `${pointerSubject(assertion.pointer)} is ${bounds(assertion.min, assertion.max)}`;
    case 'length':
      return `${pointerSubject(assertion.pointer)} has a length ${bounds(assertion.min, assertion.max)}`;
    case 'latency':
      return `latency at most ${assertion.maxMs} ms`;
    case 'cost':
      return `cost at most $${assertion.maxUsd}`;
    case 'javascript':
      return `javascript: ${codePreview(assertion.code)}`;
    default:
      return assertNever(assertion);
  }
}
