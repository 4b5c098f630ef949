export { SignInForm } from './components/sign-in-form';
export { SignOutButton } from './components/sign-out-button';
export { consoleIdentityOf, principalOf, type ConsoleIdentity } from './server/console-identity';
export { routeCaller, type RouteCaller } from './server/route-caller';
export { isSameOriginRequest } from './server/same-origin';
export { signInErrorMessage, signInErrors } from './server/sign-in-errors';
export { handleSignIn, handleSignOut } from './server/sign-in-handlers';
export { currentSignIn, requireSignIn, type SignedIn } from './server/signed-in';
