import { ApiError, ApiErrorCode } from '../errors/api-error';

/**
 * Every value a header was sent with, in order, from Node's raw header list (name, value, …).
 * Node's parsed `headers` hide repeats: it keeps only the first of some (`Authorization`, `Host`)
 * and comma-joins others, so a header that must appear once is read with `readSingleHeader`.
 */
export function rawHeaderValues(rawHeaders: readonly string[], name: string): string[] {
  const lowerName = name.toLowerCase();
  const values: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2)
    if (rawHeaders[index]!.toLowerCase() === lowerName) values.push(rawHeaders[index + 1]!);
  return values;
}

/** A header that may appear at most once, as the request sent it: not at all, once, or repeated. */
export type SingleHeader =
  | { readonly kind: 'absent' }
  | { readonly kind: 'once'; readonly value: string }
  | { readonly kind: 'repeated'; readonly count: number };

/**
 * The one way to read a header that must appear at most once (`Host`, a credential,
 * `Idempotency-Key`, `X-End-User-Id` …): from the raw list, so a repeat is seen, never joined into
 * one value or silently dropped. Each caller decides what a repeat means for it (a 400, a 401).
 */
export function readSingleHeader(rawHeaders: readonly string[], name: string): SingleHeader {
  const values = rawHeaderValues(rawHeaders, name);
  if (values.length === 0) return { kind: 'absent' };
  if (values.length === 1) return { kind: 'once', value: values[0]! };
  return { kind: 'repeated', count: values.length };
}

/**
 * The value of a header a request may send once (undefined when absent). A repeat is a 400
 * `header.<name>: send it once (<why>); got <count>`, `why` saying what the header names.
 */
export function headerSentOnce(rawHeaders: readonly string[], name: string, why: string): string | undefined {
  const header = readSingleHeader(rawHeaders, name);
  if (header.kind === 'repeated') {
    throw new ApiError(
      ApiErrorCode.ValidationFailed,
      `header.${name.toLowerCase()}: send it once (${why}); got ${header.count}`,
    );
  }
  return header.kind === 'once' ? header.value : undefined;
}
