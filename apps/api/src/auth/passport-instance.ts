import passport from 'passport';

/**
 * This app's own passport `Authenticator`, where its strategies are registered and through which
 * the guard authenticates. Not the process-wide `passport` singleton that `@nestjs/passport`'s
 * `AuthGuard` uses: several apps live in one process (the tests, the benchmarks), and with one
 * registry the last app built would judge every app's requests with its own database.
 */
export const PASSPORT = Symbol('PASSPORT');

export type PassportAuthenticator = passport.Authenticator;

export const passportProvider = {
  provide: PASSPORT,
  useFactory: (): PassportAuthenticator => new passport.Authenticator(),
};
