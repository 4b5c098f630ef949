import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api-client';
import { notFoundWhenApiSaysSo } from './not-found-from-api';

/** What Next's `notFound()` throws, as its digest says. */
function answersNotFound(error: unknown): boolean {
  try {
    notFoundWhenApiSaysSo(error);
    return false;
  } catch (thrown) {
    return String((thrown as { digest?: unknown }).digest).endsWith(';404');
  }
}

describe('notFoundWhenApiSaysSo', () => {
  it('answers 404 when the API knows no such thing, or refuses the id in the address', () => {
    expect(answersNotFound(new ApiRequestError(404, 'NOT_FOUND', 'no such session'))).toBe(true);
    expect(
      answersNotFound(
        new ApiRequestError(400, 'VALIDATION_FAILED', 'path.id: must be an id as returned by this API'),
      ),
    ).toBe(true);
  });

  it('leaves every other refusal and failure to the page, which shows it', () => {
    expect(answersNotFound(new ApiRequestError(400, 'VALIDATION_FAILED', 'query.limit: too big'))).toBe(
      false,
    );
    expect(answersNotFound(new ApiRequestError(403, 'FORBIDDEN', 'path.id: not yours'))).toBe(false);
    expect(answersNotFound(new ApiRequestError(500, 'INTERNAL', 'boom'))).toBe(false);
    expect(answersNotFound(new Error('socket hang up'))).toBe(false);
  });
});
