import { redirect } from 'next/navigation';
import {
  DEFAULT_RETURN_PATH,
  SignInForm,
  SsoSignIn,
  currentSignIn,
  safeReturnPath,
  signInErrorMessage,
  ssoSignInOptions,
} from '../../features/auth';
import { singleParam, type SearchParams } from '../../features/url-state';

export const dynamic = 'force-dynamic';

export default async function SignIn({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = await searchParams;
  // Both from the URL, so both from closed sets: a message by its code, a page only of this console.
  const message = signInErrorMessage(singleParam(query, 'error'));
  const returnPath = safeReturnPath(singleParam(query, 'next'));
  // "expired" means the API ended the cookie's session: show the form even though a cookie is still there.
  if (message === undefined && (await currentSignIn()) !== null) redirect(returnPath ?? DEFAULT_RETURN_PATH);
  // Single sign-on when configured; the key form without it, or beside it when an operator allows.
  const options = await ssoSignInOptions();
  return (
    <main id="main" className="centered">
      {options.sso !== null && (
        <>
          {!options.keySignIn && message !== undefined && (
            <p role="alert" className="alert">
              {message}
            </p>
          )}
          <SsoSignIn
            providerName={options.sso.providerName}
            alone={!options.keySignIn}
            returnPath={returnPath}
          />
        </>
      )}
      {options.keySignIn && <SignInForm error={message} returnPath={returnPath} />}
    </main>
  );
}
