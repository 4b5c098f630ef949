import { describeSsoSignIn } from './sso-sign-in.suite';

describeSsoSignIn('postgres');
