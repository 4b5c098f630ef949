import type { FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { ApiError, ApiErrorCode } from '../errors/api-error';

// A maximal run of percent-escapes: the bytes of one or more characters. A UTF-8 sequence cannot
// continue past a literal character, so each run must be valid UTF-8 on its own.
const escapeRun = /(?:%[0-9A-Fa-f]{2})+/g;

function decodesToUtf8(component: string): boolean {
  if (!component.includes('%')) return true;
  for (const [run] of component.matchAll(escapeRun)) {
    if (!isUtf8(Buffer.from(run.replaceAll('%', ''), 'hex'))) return false;
  }
  return true;
}

function readableName(encodedName: string): string {
  try {
    return decodeURIComponent(encodedName.replaceAll('+', ' '));
  } catch {
    return encodedName;
  }
}

/**
 * The problem with the first query parameter whose percent-escapes are not UTF-8 (`%ED%A0%80`, an
 * encoded surrogate; `%E9`, Latin-1), or undefined. Fastify's query parser keeps such a value as
 * its raw escapes, so it would be searched for, or recorded, as text the client never meant.
 * A `%` that starts no escape stays a literal `%`, as in WHATWG URLs.
 */
export function undecodableQueryProblem(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    const separator = pair.indexOf('=');
    const name = separator === -1 ? pair : pair.slice(0, separator);
    const value = separator === -1 ? '' : pair.slice(separator + 1);
    if (!decodesToUtf8(name))
      return `query: the parameter name ${JSON.stringify(name)} has percent-escapes that are not UTF-8`;
    if (!decodesToUtf8(value)) {
      return `query.${readableName(name)}: has percent-escapes that are not UTF-8 (encode text as UTF-8; an encoded unpaired surrogate or a byte of another encoding cannot be stored)`;
    }
  }
  return undefined;
}

/** `onRequest` hook: refuses a query string that does not decode to UTF-8, for every route. */
export function refuseUndecodableQueryString(request: FastifyRequest): void {
  const problem = undecodableQueryProblem(request.url);
  if (problem !== undefined) throw new ApiError(ApiErrorCode.ValidationFailed, problem);
}
