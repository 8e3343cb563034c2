import { PROVIDER_INFO, type ProviderId } from "@/lib/auth/providers.ts";

/**
 * One sign-in link per available provider, each starting that provider's login flow
 * and coming back to `returnTo`.
 *
 * @example
 * ```tsx
 * <ProviderButtons providers={["provider_a"]} returnTo="/ask" local={false} />
 * ```
 */
export function ProviderButtons(
  { providers, returnTo, local }: { providers: ProviderId[]; returnTo: string; local: boolean },
) {
  return (
    <ul class="provider-buttons">
      {providers.map((p) => {
        const info = PROVIDER_INFO[p];
        const href = returnTo === "/"
          ? info.loginPath
          : `${info.loginPath}?${new URLSearchParams({ returnTo })}`;
        return (
          <li key={p}>
            <a class="btn btn-primary provider-button" href={href} data-provider={p}>
              Continue with {info.label}
              {local && <span class="provider-local">(local)</span>}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
