import { PROVIDER_INFO, type ProviderId, PROVIDERS } from "@/lib/auth/providers.ts";
import type { IdentitySummary } from "@/lib/auth/identities.ts";

/**
 * The providers bound to the account, each with Unbind (a plain form, refused for the
 * last one, whose row alone says why), and Bind links for the available providers not bound yet.
 *
 * @example
 * ```tsx
 * <SignInMethods identities={ids} available={["provider_a", "provider_b"]} />
 * ```
 */
export function SignInMethods(
  { identities, available }: { identities: IdentitySummary[]; available: ProviderId[] },
) {
  const bound = new Map(identities.map((i) => [i.provider, i]));
  const only = identities.length <= 1;
  return (
    <section
      class="card sign-in-methods"
      data-testid="sign-in-methods"
      id="sign-in-methods"
      aria-labelledby="sign-in-methods-h"
    >
      <h2 id="sign-in-methods-h">Sign-in methods</h2>
      <ul class="list">
        {PROVIDERS.filter((p) => bound.has(p) || available.includes(p)).map((p) => {
          const id = bound.get(p);
          const label = PROVIDER_INFO[p].label;
          return (
            <li key={p} class="row" data-provider={p}>
              <span class="grow">
                <strong>{label}</strong> {id
                  ? <span class="meta">Bound as {id.name}</span>
                  : <span class="meta">Not bound</span>}
                {only && id && (
                  <span class="hint only-method" data-testid="only-method">
                    Your only sign-in method: bind another before unbinding this one.
                  </span>
                )}
              </span>
              {id
                ? (
                  <form method="post" action="/api/profile/identities">
                    <input type="hidden" name="provider" value={p} />
                    <button
                      type="submit"
                      class="btn btn-small"
                      disabled={only}
                      title={only ? "Your only sign-in method cannot be unbound" : undefined}
                    >
                      Unbind
                    </button>
                  </form>
                )
                : (
                  <a class="btn btn-small" href={`/api/auth/bind/start?provider=${p}`}>
                    Bind {label}
                  </a>
                )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
