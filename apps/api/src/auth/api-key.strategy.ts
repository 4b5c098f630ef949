import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { AuthenticationResult } from './authentication-result';
import { CredentialStrategy } from './credential-strategy';
import { PASSPORT, type PassportAuthenticator } from './passport-instance';

/**
 * The `api-key` way in: `Authorization: Bearer <key>` or `X-API-Key: <key>`, judged by
 * `ApiKeyAuthenticator` (format, hash lookup among unrevoked keys, verified-key cache, dev mode).
 */
@Injectable()
export class ApiKeyStrategy extends CredentialStrategy('api-key') {
  constructor(
    @Inject(PASSPORT) passport: PassportAuthenticator,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
  ) {
    super(passport);
  }

  validate(request: FastifyRequest): Promise<AuthenticationResult> {
    return this.authenticator.authenticate(request);
  }
}
