import { redirect } from 'next/navigation';
import { SignInForm, currentSignIn, signInErrorMessage } from '../../features/auth';

export const dynamic = 'force-dynamic';

export default async function SignIn({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { error } = await searchParams;
  const message = signInErrorMessage(typeof error === 'string' ? error : undefined);
  // "expired" means the stored key stopped working: show the form even though a cookie is still there.
  if (message === undefined && (await currentSignIn()) !== null) redirect('/sessions');
  return (
    <main id="main" className="centered">
      <SignInForm error={message} />
    </main>
  );
}
