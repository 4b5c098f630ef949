import { findTooDeep, tooDeepMessage, type TooDeep } from '@agentdesk/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { ApiError, ApiErrorCode, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from '../errors/api-error';

/** The answer to a body whose bytes are not UTF-8 (RFC 8259 requires UTF-8 for JSON on the wire). */
export const BODY_NOT_UTF8_MESSAGE =
  'body: not valid UTF-8 (JSON must be sent as UTF-8; text with bytes of another encoding or an encoded unpaired surrogate cannot be stored)';

/** The one media type request bodies may have (any letter case, optionally `; charset=utf-8`). */
export const JSON_MEDIA_TYPE = 'application/json';

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const utf8Names = new Set(['utf-8', 'utf8']);
/** Long enough to recognise, short enough not to echo a header back at length. */
const maximumEchoedLength = 100;

/**
 * Makes JSON the only request body format the API accepts, on every route:
 * - Fastify's other default parser (`text/plain`) is removed, and Nest's form parser is never
 *   registered (`bodyParser: false`): a cross-site HTML form can send only form, multipart or
 *   text bodies, so none of them may create or change anything;
 * - `application/json` is parsed by Fastify's own parser (it refuses `__proto__` and
 *   `constructor.prototype` keys); a charset other than UTF-8 is refused rather than misread, and
 *   so are bytes that are not UTF-8 (Fastify's default would decode them leniently and store
 *   U+FFFD in place of what was sent);
 * - a value nested deeper than `MAX_NESTING_DEPTH` is refused here, before validation or storage
 *   recurse into it (5,000 levels overflowed `JSON.stringify` while a suite version was written);
 * - any other Content-Type — a body without one too — answers 415 naming the expected type,
 *   before the body is read.
 * Parse failures are `ApiError`s, so the one exception filter words them (Nest would otherwise
 * turn Fastify's errors into its own exceptions and lose their codes).
 */
export function acceptOnlyJsonBodies(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    JSON_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit },
    (request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) => {
      const charset = charsetParameter.exec(request.headers['content-type'] ?? '')?.[1];
      if (charset !== undefined && !utf8Names.has(charset.toLowerCase())) {
        done(
          new ApiError(
            ApiErrorCode.UnsupportedMediaType,
            `JSON bodies must be UTF-8 (got charset=${echo(charset)}): ${UNSUPPORTED_MEDIA_TYPE_MESSAGE}`,
          ),
        );
        return;
      }
      if (body.length > 0 && !isUtf8(body)) {
        done(new ApiError(ApiErrorCode.ValidationFailed, BODY_NOT_UTF8_MESSAGE));
        return;
      }
      parseJson(request, body.toString('utf8'), (error, value) => {
        if (error !== null) return done(jsonBodyError(error));
        const tooDeep = findTooDeep(value);
        if (tooDeep !== undefined) return done(tooDeepBody(tooDeep));
        done(null, value);
      });
    },
  );
  // The catch-all: every Content-Type without a parser of its own, and a body sent without one.
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    done(unsupportedMediaType(request.headers['content-type']));
  });
}

/** The 415 of a body that is not JSON, naming what was sent and what is expected. */
export function unsupportedMediaType(contentType: string | undefined): ApiError {
  const sent =
    contentType === undefined || contentType.trim() === ''
      ? 'A body without a Content-Type'
      : `Content-Type ${echo(contentType)}`;
  return new ApiError(
    ApiErrorCode.UnsupportedMediaType,
    `${sent} is not accepted. ${UNSUPPORTED_MEDIA_TYPE_MESSAGE}`,
  );
}

function jsonBodyError(error: Error): ApiError {
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new ApiError(
      ApiErrorCode.ValidationFailed,
      'body: Content-Type is application/json but the body is empty (send a JSON value, or no Content-Type)',
      { cause: error },
    );
  }
  // Fastify's message adds nothing; say what the parser refuses.
  return new ApiError(
    ApiErrorCode.ValidationFailed,
    'body: not valid JSON (check quotes, commas and brackets; __proto__ and constructor.prototype keys are refused)',
    { cause: error },
  );
}

/** The 400 of a body nested too deep, naming where (the API's `body.a.0.b` path style) and the limit. */
function tooDeepBody(tooDeep: TooDeep): ApiError {
  return new ApiError(
    ApiErrorCode.ValidationFailed,
    tooDeepMessage(tooDeep, (segments) => ['body', ...segments.map(String)].join('.')),
  );
}

function echo(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > maximumEchoedLength ? `${clean.slice(0, maximumEchoedLength)}…` : clean;
}
