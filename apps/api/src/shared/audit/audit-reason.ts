import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { refineStoredHeader } from '../../http/header-text';
import { singleLineText } from '../../http/inputs';
import { ZodValidationPipe } from '../../http/zod-validation.pipe';

/** The header an admin or viewer states why they read someone's data (or the `reason` query parameter). */
export const AUDIT_REASON_HEADER = 'x-audit-reason';

/** A reason as recorded in the audit log. */
export const auditReasonSchema = singleLineText(500);

/** The `reason` query parameter of every audited route (spread into its strict query schema). */
export const auditReasonQueryField = { reason: auditReasonSchema.optional() } as const;

const headerPipe = new ZodValidationPipe(
  auditReasonSchema.superRefine(refineStoredHeader).optional(),
  'header',
  AUDIT_REASON_HEADER,
);

/** The validated `X-Audit-Reason` header (undefined when absent); 400 when invalid. */
export function readAuditReasonHeader(request: FastifyRequest): string | undefined {
  const value = request.headers[AUDIT_REASON_HEADER];
  return headerPipe.transform(Array.isArray(value) ? value.join(', ') : value);
}

/** Documents the `X-Audit-Reason` header of an audited route. */
export const DocumentsAuditReason = (): MethodDecorator & ClassDecorator =>
  ApiHeader({
    name: AUDIT_REASON_HEADER,
    required: false,
    description: 'Why you read this data (kept in the audit log; or the reason query parameter)',
  });

/** Documents the `X-Audit-Reason` header of an audited change (`@Audited`; no query parameter there). */
export const DocumentsChangeReason = (): MethodDecorator & ClassDecorator =>
  ApiHeader({
    name: AUDIT_REASON_HEADER,
    required: false,
    description: 'Why you make this change (kept in its audit record)',
  });
