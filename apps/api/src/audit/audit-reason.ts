import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { refineStoredHeader } from '../http/header-text';
import { singleLineText } from '../http/inputs';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

/** The header an admin or viewer states why they read someone's data (or the `reason` query parameter). */
export const AUDIT_REASON_HEADER = 'x-audit-reason';

/** A reason as recorded in the audit log. */
export const auditReasonSchema = singleLineText(500);

const headerPipe = new ZodValidationPipe(
  auditReasonSchema.superRefine(refineStoredHeader).optional(),
  'header',
  AUDIT_REASON_HEADER,
);

/** Handler parameter: the validated `X-Audit-Reason` header (undefined when absent). */
export const AuditReasonHeader = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | undefined => {
    const value = context.switchToHttp().getRequest<FastifyRequest>().headers[AUDIT_REASON_HEADER];
    return headerPipe.transform(Array.isArray(value) ? value.join(', ') : value);
  },
);
