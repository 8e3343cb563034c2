/** Plain-words explanations of the sign-in callback errors (SPEC.md "Errors"). */
export const SIGN_IN_ERRORS: Record<string, string> = {
  oauth_error:
    "Sign-in was cancelled or the provider reported a problem. You can try again whenever you like.",
  invalid_state:
    "That sign-in attempt expired or was started in another browser, so we stopped it to keep your account safe. Please start signing in again.",
  no_code:
    "The provider sent you back without confirming who you are. Please try signing in again.",
  auth_failed:
    "We could not finish signing you in with the provider. Please try again in a moment.",
};

/**
 * A banner for `?error=oauth_error|invalid_state|no_code|auth_failed` after a failed
 * sign-in; renders nothing for other pages and unknown values.
 *
 * @example
 * ```tsx
 * <SignInErrorBanner url={url} />
 * ```
 */
export function SignInErrorBanner({ url }: { url: URL }) {
  const code = url.searchParams.get("error") ?? "";
  const message = Object.hasOwn(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code] : null;
  if (!message) return null;
  return (
    <div class="alert alert-error signin-error" role="alert" data-testid="signin-error">
      <strong>Sign-in failed.</strong> {message} <a href="/signin">Sign in</a>
    </div>
  );
}
