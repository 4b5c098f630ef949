export function SignOutButton() {
  return (
    <form method="post" action="/auth/sign-out">
      <button type="submit" className="secondary">
        Sign out
      </button>
    </form>
  );
}
