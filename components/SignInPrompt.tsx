/**
 * The sign-in link for a signed-out visitor: `/signin?returnTo=<this page>`.
 *
 * @example
 * ```ts
 * signInHref(new URL("http://x/questions/q1?a=1")); // "/signin?returnTo=%2Fquestions%2Fq1%3Fa%3D1"
 * ```
 */
export function signInHref(url: URL): string {
  return `/signin?returnTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** "Sign in to …" box shown where a signed-in action would be. */
export function SignInPrompt({ url, action }: { url: URL; action: string }) {
  return (
    <div class="alert alert-info signin-box" data-testid="signin-prompt">
      <a class="btn btn-primary btn-small" href={signInHref(url)}>Sign in</a>{" "}
      <span>to {action}.</span>
    </div>
  );
}
