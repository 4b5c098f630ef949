import { costJsonOf, type PersonJson, type PersonUsageJson } from '@agentdesk/api-contract';
import type { DayRange, Person } from '@agentdesk/storage';
import { toUserJson } from './user-json';

/** A directory row as the API answers it, with the range its usage covers. */
export function toPersonJson(person: Person, range: DayRange): PersonJson {
  return {
    ...toUserJson(person.user),
    email: person.email,
    role: person.role,
    sessionCount: person.sessionCount,
    lastActiveAt: person.lastActiveAt === null ? null : person.lastActiveAt.toISOString(),
    usage: usageJsonOf(person.usage),
    usageFrom: range.fromDay,
    usageTo: range.toDay,
  };
}

/** The storage's priced sum and unpriced count as the contract's cost: unknown when any call had no price. */
export function usageJsonOf(usage: Person['usage']): PersonUsageJson {
  const { costMicros, unpricedCalls, ...tokens } = usage;
  return { ...tokens, ...costJsonOf(costMicros, unpricedCalls) };
}
