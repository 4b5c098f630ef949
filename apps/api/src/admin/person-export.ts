import { costJsonOf } from '@agentdesk/api-contract';
import type { DayRange, Person } from '@agentdesk/storage';
import type { ExportShape } from '../shared/exports/export-stream';

/**
 * A person as an export row: the directory's columns, the usage of `range` (its days in every row,
 * so a file read alone says what its numbers cover), cost in micro-dollars (empty when any call had
 * no price, with the priced part beside it), times as ISO 8601.
 */
export function personExportShape(range: DayRange): ExportShape<Person> {
  return {
    name: 'users',
    columns: [
      'id',
      'displayName',
      'externalId',
      'portalId',
      'email',
      'role',
      'sessionCount',
      'lastActiveAt',
      'createdAt',
      'usageFrom',
      'usageTo',
      'inputTokens',
      'outputTokens',
      'thinkingTokens',
      'cachedTokens',
      'modelCalls',
      'costMicros',
      'pricedCostMicros',
      'unpricedCalls',
    ],
    toRecord: (person) => ({
      id: person.user.id,
      displayName: person.user.displayName,
      externalId: person.user.externalId,
      portalId: person.user.portalId,
      email: person.email,
      role: person.role,
      sessionCount: person.sessionCount,
      lastActiveAt: person.lastActiveAt === null ? null : person.lastActiveAt.toISOString(),
      createdAt: person.user.createdAt.toISOString(),
      usageFrom: range.fromDay,
      usageTo: range.toDay,
      inputTokens: person.usage.inputTokens,
      outputTokens: person.usage.outputTokens,
      thinkingTokens: person.usage.thinkingTokens,
      cachedTokens: person.usage.cachedTokens,
      modelCalls: person.usage.modelCalls,
      // As the directory answers it: empty (unknown) when any call had no price, never 0.
      ...costJsonOf(person.usage.costMicros, person.usage.unpricedCalls),
    }),
  };
}
