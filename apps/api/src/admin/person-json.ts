import type { PersonJson } from '@agentdesk/api-contract';
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
    usage: person.usage,
    usageFrom: range.fromDay,
    usageTo: range.toDay,
  };
}
