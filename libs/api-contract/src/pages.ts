import { z } from 'zod';

/** A page of items: pass `nextCursor` as `cursor` to read the next one (null on the last page). */
export function pageJsonSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** A page as a type, for callers that hold the item type rather than its schema. */
export interface PageJson<Item> {
  items: Item[];
  nextCursor: string | null;
}
