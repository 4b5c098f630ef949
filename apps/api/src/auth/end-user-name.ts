import { MAX_PERSON_NAME_LENGTH } from '@agentdesk/api-contract';
import { isUtf8 } from 'node:buffer';
import { z } from 'zod';
import { ApiError, ApiErrorCode } from '../errors/api-error';
import { END_USER_NAME_HEADER } from '../http/header-names';
import { headerSentOnce } from '../http/raw-headers';

const controlCharacter = /\p{Cc}/u;

/** Why a display name cannot be stored, or undefined: trimmed, 1–120 characters, no control characters. */
export function personNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty (after trimming spaces)';
  if ([...name].length > MAX_PERSON_NAME_LENGTH)
    return `must be at most ${MAX_PERSON_NAME_LENGTH} characters`;
  const index = name.search(controlCharacter);
  if (index !== -1) {
    const code = name.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0');
    return `must not contain control characters: the character at index ${index} (U+${code}) is one`;
  }
  return undefined;
}

/** The body field a portal may send the end user's display name in, instead of the header. */
export const END_USER_NAME_BODY_FIELD = 'endUserName';

/** Where the request named its end user's display name, as an error names the field. */
export type EndUserNameSource =
  `header.${typeof END_USER_NAME_HEADER}` | `body.${typeof END_USER_NAME_BODY_FIELD}`;

/** The display name a request sent, and where (for the error that refuses it). */
export interface SentEndUserName {
  readonly name: string;
  readonly source: EndUserNameSource;
}

/**
 * `endUserName` in a body (create a session, send a message): the same rules as the header, for the
 * OpenAPI document and the body's own validation. `endUserNameSent` has read and checked it already.
 */
export const endUserNameBodyField = z
  .string()
  .superRefine((value, context) => {
    const problem = personNameProblem(value.trim());
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    `The end user's display name (trusted portal naming an end user only), 1–${MAX_PERSON_NAME_LENGTH} characters; ` +
      `the same as the ${END_USER_NAME_HEADER} header, which may be sent instead (both: they must agree)`,
  );

/**
 * The end user's display name a portal sent in `X-End-User-Name` (UTF-8, raw or percent-encoded) or, on
 * routes that take it (`fromBody`), in the body's `endUserName`; trimmed, or undefined when absent.
 * A repeated header, bad percent-encoding, a name `personNameProblem` refuses, or a header and a
 * body field that differ is a 400 naming the field.
 */
export function endUserNameSent(rawHeaders: readonly string[], body?: unknown): SentEndUserName | undefined {
  const fromHeader = endUserNameOf(rawHeaders);
  const fromBody = bodyEndUserNameOf(body);
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody)
    throw new ApiError(
      ApiErrorCode.ValidationFailed,
      `body.${END_USER_NAME_BODY_FIELD}: differs from the ${END_USER_NAME_HEADER} header; send the name once, or the same name in both`,
    );
  if (fromHeader !== undefined) return { name: fromHeader, source: `header.${END_USER_NAME_HEADER}` };
  if (fromBody !== undefined) return { name: fromBody, source: `body.${END_USER_NAME_BODY_FIELD}` };
  return undefined;
}

/** The header's name alone (see `endUserNameSent`). */
export function endUserNameOf(rawHeaders: readonly string[]): string | undefined {
  const raw = headerSentOnce(rawHeaders, END_USER_NAME_HEADER, 'a request names one end user');
  if (raw === undefined) return undefined;
  const field = `header.${END_USER_NAME_HEADER}`;
  // Node hands each header byte over as one Latin-1 character: a name sent as raw UTF-8 ("Zoë")
  // arrives as "ZoÃ«". Its bytes are read back as UTF-8, and bytes that are not UTF-8 are refused
  // (a Latin-1 "ë" alone is no UTF-8): never stored altered.
  const bytes = Buffer.from(raw, 'latin1');
  if (!isUtf8(bytes))
    throw refused(
      field,
      'must be UTF-8: send the name as UTF-8 bytes, or percent-encoded UTF-8 (encodeURIComponent of the name)',
    );
  let decoded: string;
  try {
    decoded = decodeURIComponent(bytes.toString('utf8'));
  } catch {
    throw refused(
      field,
      'has a "%" that is no percent-encoding: send the name percent-encoded (encodeURIComponent of the name, "%" as %25), or as UTF-8 without "%"',
    );
  }
  const name = decoded.trim();
  const problem = personNameProblem(name);
  if (problem !== undefined) throw refused(`header.${END_USER_NAME_HEADER}`, problem);
  return name;
}

/** The body's `endUserName`, trimmed and checked, when the body is an object that has one. */
function bodyEndUserNameOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  if (!Object.hasOwn(body, END_USER_NAME_BODY_FIELD)) return undefined;
  const value: unknown = (body as Record<string, unknown>)[END_USER_NAME_BODY_FIELD];
  const field = `body.${END_USER_NAME_BODY_FIELD}`;
  if (typeof value !== 'string') throw refused(field, 'must be a string');
  const name = value.trim();
  const problem = personNameProblem(name);
  if (problem !== undefined) throw refused(field, problem);
  return name;
}

function refused(field: string, problem: string): ApiError {
  return new ApiError(ApiErrorCode.ValidationFailed, `${field}: ${problem}`);
}
