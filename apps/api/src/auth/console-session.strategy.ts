import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticationResult } from './authentication-result';
import { ConsoleSessionAuthenticator } from './console-session-authenticator';
import { CredentialStrategy } from './credential-strategy';
import { PASSPORT, type PassportAuthenticator } from './passport-instance';

/**
 * The `console-session` way in: `X-Console-Session: <token>`, sent by the console's server for a
 * signed-in person, judged by `ConsoleSessionAuthenticator` (an open session in the database).
 */
@Injectable()
export class ConsoleSessionStrategy extends CredentialStrategy('console-session') {
  constructor(
    @Inject(PASSPORT) passport: PassportAuthenticator,
    @Inject(ConsoleSessionAuthenticator) private readonly authenticator: ConsoleSessionAuthenticator,
  ) {
    super(passport);
  }

  validate(request: FastifyRequest): Promise<AuthenticationResult> {
    return this.authenticator.authenticate(request);
  }
}
