import type { PipeTransform } from '@nestjs/common';
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
 */
export class ZodValidationPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.output<Schema>> {
  constructor(
    private readonly schema: Schema,
    private readonly location: InputLocation,
    private readonly name?: string,
  ) {}

  transform(value: unknown): z.output<Schema> {
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
