import type { z } from 'zod';

/** A range bound as a list input holds it after parsing: an instant, or a `YYYY-MM-DD` day. */
type RangeBound = Date | string;

function instantOf(bound: RangeBound): number {
  return bound instanceof Date ? bound.getTime() : Date.parse(`${bound}T00:00:00Z`);
}

/**
 * The one rule every list with a date range follows (a `superRefine` on its query): its start must
 * not come after its end. A range the wrong way round matches nothing, and an empty list gives no
 * hint why; refusing it names the field to fix (`from: must not be after to`). Each list names its
 * own two fields: the sessions' `createdFrom`/`createdBefore`, the audit's `from`/`before`, the usage
 * report's `from`/`to`.
 */
export function rangeInOrder<Start extends string, End extends string>(start: Start, end: End) {
  return (query: Partial<Record<Start | End, RangeBound | undefined>>, context: z.RefinementCtx): void => {
    const from = query[start];
    const to = query[end];
    if (from === undefined || to === undefined || instantOf(from) <= instantOf(to)) return;
    context.addIssue({ code: 'custom', path: [start], message: `must not be after ${end}` });
  };
}
