/** Plain-words explanations of the sign-in callback errors (docs/interface.md#errors); `oauth_error` (a cancel at the provider) is shown neutrally. */
export const SIGN_IN_ERRORS: Record<string, string> = {
  oauth_error:
    "You stopped at the provider (or it declined), so nothing changed. You can sign in again whenever you like.",
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
  // docs/interface.md#callback's `oauth_error` is what a cancel at the provider ends in: not a failure.
  if (code === "oauth_error") {
    return (
      <div class="alert alert-info signin-cancelled" role="status" data-testid="signin-cancelled">
        <strong>Sign-in cancelled.</strong> {message} <a href="/signin">Sign in</a>
      </div>
    );
  }
  return (
    <div class="alert alert-error signin-error" role="alert" data-testid="signin-error">
      <strong>Sign-in failed.</strong> {message} <a href="/signin">Sign in</a>
    </div>
  );
}
