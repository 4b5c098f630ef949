import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { JsonObject, JsonValue } from '@agentdesk/storage';
import { principalOf } from '../../auth/request-principal';
import { clientRequestIdOf } from '../../http/request-id';
import { readAuditReasonHeader } from './audit-reason';
import type { AuditContext } from './cross-user-audit';

/**
 * Handler parameter: the facts an audit record of this request keeps — the principal and its way
 * in, the server's request id, the client's own `X-Request-Id` (apart) and the `X-Audit-Reason`
 * header — and the way to tell the audit trail what an `@Audited` route changed.
 * A `reason` query parameter, where a route takes one, wins over the header (`withQueryReason`).
 */
export const CurrentAuditContext = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuditContext => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return {
      principal: principalOf(request),
      wayIn: request.wayIn ?? null,
      requestId: request.id,
      clientRequestId: clientRequestIdOf(request.raw),
      reason: readAuditReasonHeader(request),
      describeChange: (change) => {
        request.auditedChange = change;
      },
    };
  },
);

/** The context with the query's `reason` when one was given. */
export function withQueryReason(context: AuditContext, reason: string | undefined): AuditContext {
  return reason === undefined ? context : { ...context, reason };
}

const pagingParameters = new Set(['limit', 'cursor', 'reason']);

/** A listing's validated query as the filter an audit record keeps: no paging, dates as ISO strings. */
export function listingFilter(query: Readonly<Record<string, unknown>>): JsonObject {
  const filter: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(query)) {
    if (pagingParameters.has(name) || value === undefined) continue;
    filter[name] = value instanceof Date ? value.toISOString() : (value as JsonValue);
  }
  return filter;
}
