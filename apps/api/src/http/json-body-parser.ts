import type { FastifyInstance } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { ApiError, ApiErrorCode } from '../errors/api-error';

/** The answer to a body whose bytes are not UTF-8 (RFC 8259 requires UTF-8 for JSON on the wire). */
export const BODY_NOT_UTF8_MESSAGE =
  'body: not valid UTF-8 (JSON must be sent as UTF-8; text with bytes of another encoding or an encoded unpaired surrogate cannot be stored)';

/**
 * Registers the one `application/json` parser. Fastify's default decodes the bytes leniently, so a
 * body in Latin-1 or with an encoded surrogate (`ED A0 80`) would be stored with U+FFFD in place of
 * what was sent; here such a body is refused. The bytes that are UTF-8 go through Fastify's own
 * JSON parser (prototype-poisoning checks included). Registering it also keeps Nest from adding its
 * parsers, so a form-encoded body is refused (415) like any other type that is not JSON.
 */
export function registerStrictJsonParser(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit },
    (request, body: Buffer, done) => {
      if (body.length > 0 && !isUtf8(body)) {
        done(new ApiError(ApiErrorCode.ValidationFailed, BODY_NOT_UTF8_MESSAGE), undefined);
        return;
      }
      parseJson(request, body.toString('utf8'), done);
    },
  );
}
