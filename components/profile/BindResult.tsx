import { isProviderId, PROVIDER_INFO } from "@/lib/auth/providers.ts";

const BIND_REASONS: Record<string, string> = {
  no_target:
    "The binding could not be matched to your signed-in account. Please start it again from this page.",
  conflict: "That account already signs in to a different Parley user, so it was not bound.",
  cancelled:
    "It was cancelled, or the provider reported a problem. Nothing changed; you can try again.",
  already_bound: "You already have a different account of this provider bound. Unbind it first.",
};

const UNBIND_REASONS: Record<string, string> = {
  last: "That is your only sign-in method, so it stays bound. Bind another provider first.",
  not_found: "That provider was not bound to your account.",
  invalid_provider: "Unknown provider.",
};

/**
 * The outcome of a bind (`?bind=success|failed&reason=…&provider=…`) or an unbind
 * (`?unbind=…`) in plain words; nothing when the URL carries neither.
 *
 * @example
 * ```tsx
 * <BindResult url={url} />
 * ```
 */
export function BindResult({ url }: { url: URL }) {
  const q = url.searchParams;
  const p = q.get("provider");
  const label = isProviderId(p) ? PROVIDER_INFO[p].label : "The provider";
  const reason = q.get("reason") ?? "";
  if (q.get("bind") === "success") {
    return (
      <p class="alert alert-ok" role="status" data-testid="bind-result">
        {label} is now bound to your account.
      </p>
    );
  }
  if (q.get("bind") === "failed") {
    return (
      <p class="alert alert-error" role="alert" data-testid="bind-result">
        Binding failed.{" "}
        {Object.hasOwn(BIND_REASONS, reason) ? BIND_REASONS[reason] : "Please try again."}
      </p>
    );
  }
  if (q.get("unbind") === "success") {
    return (
      <p class="alert alert-ok" role="status" data-testid="bind-result">
        {label} is no longer bound to your account.
      </p>
    );
  }
  if (q.get("unbind") === "failed") {
    return (
      <p class="alert alert-error" role="alert" data-testid="bind-result">
        Unbinding failed.{" "}
        {Object.hasOwn(UNBIND_REASONS, reason) ? UNBIND_REASONS[reason] : "Please try again."}
      </p>
    );
  }
  return null;
}
