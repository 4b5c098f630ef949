import type { PipeTransform } from '@nestjs/common';
import { findUnstorableText, type UnstorableText } from '@agentdesk/storage';
import type { z } from 'zod';
import { ApiError, ApiErrorCode } from '../errors/api-error';

/** Where a validated value came from; it prefixes every message (`body.label: …`). */
export type InputLocation = 'body' | 'query' | 'path' | 'header';

/** Fields a client must never set itself: ownership and privileges come from the server-side principal. */
const privilegedFields = new Set([
  'userId',
  'ownerUserId',
  'role',
  'portalId',
  'trustClientUserId',
  'status',
  'id',
]);

const maximumReportedIssues = 5;

/**
 * Validates one input with a zod schema (instead of class-validator, which needs decorator
 * metadata that tsx/vitest do not emit). Failures are 400 with a message naming each field.
 * Every string of the input, keys included and at any depth, is first checked for text the
 * databases cannot store unchanged (NUL, unpaired surrogates): one check for every route.
 */
export class ZodValidationPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.output<Schema>> {
  constructor(
    private readonly schema: Schema,
    private readonly location: InputLocation,
    private readonly name?: string,
  ) {}

  transform(value: unknown): z.output<Schema> {
    const unstorable = findUnstorableText(value);
    if (unstorable !== undefined)
      throw new ApiError(
        ApiErrorCode.ValidationFailed,
        describeUnstorableText(unstorable, this.location, this.name),
      );
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    throw new ApiError(
      ApiErrorCode.ValidationFailed,
      describeIssues(result.error.issues, this.location, this.name),
    );
  }
}

/** One readable line per issue, e.g. `body.userId: may not be set by the client`. */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  location: InputLocation,
  name?: string,
): string {
  const root = name === undefined ? location : `${location}.${name}`;
  const lines = issues.slice(0, maximumReportedIssues).flatMap((issue) => {
    const path = [root, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) =>
        privilegedFields.has(key)
          ? `${path}.${key}: may not be set by the client`
          : `${path}.${key}: unknown field (not accepted here)`,
      );
    }
    return [`${path}: ${issue.message}`];
  });
  const more =
    issues.length > maximumReportedIssues ? ` (and ${issues.length - maximumReportedIssues} more)` : '';
  return `${lines.join('; ')}${more}`;
}

/** e.g. `body.metadata.note: contains a NUL character (U+0000), which cannot be stored (at index 3)`. */
export function describeUnstorableText(
  found: UnstorableText,
  location: InputLocation,
  name?: string,
): string {
  const root = name === undefined ? location : `${location}.${name}`;
  const path = [root, ...found.path.map(String)].join('.');
  // JSON.stringify escapes the unpaired surrogate or NUL, so the key can be quoted in the answer.
  return found.key === undefined
    ? `${path}: ${found.problem}`
    : `${path}: the key ${JSON.stringify(found.key)} ${found.problem}`;
}
