import { z } from 'zod';
import { exportFormats } from '@agentdesk/api-contract';

/** `format`: csv (the default) or jsonl. */
export const exportFormatField = {
  format: z
    .enum(exportFormats, { error: `must be one of ${exportFormats.join(', ')}` })
    .default('csv')
    .describe(
      "csv (RFC 4180, header row, formula-like text prefixed with ') or jsonl (one JSON object per line)",
    ),
};

/** A list query's fields without its paging (`limit`, `cursor`): an export reads every page itself. */
export function withoutPaging<Shape extends z.ZodRawShape>(shape: Shape): Omit<Shape, 'limit' | 'cursor'> {
  const { limit: _limit, cursor: _cursor, ...rest } = shape;
  return rest;
}
