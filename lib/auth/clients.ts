/**
 * The provider clients by id.
 *
 * @module
 */
import type { ProviderId } from "../config.ts";
import { providerA } from "./provider_a.ts";
import { providerB } from "./provider_b.ts";
import { providerC } from "./provider_c.ts";
import type { ProviderClient } from "./types.ts";

/**
 * The client that speaks a provider's protocol.
 *
 * @example
 * ```ts
 * const client = providerClient("provider_c");
 * ```
 */
export function providerClient(provider: ProviderId): ProviderClient<unknown> {
  const clients = {
    provider_a: providerA,
    provider_b: providerB,
    provider_c: providerC,
  } as Record<ProviderId, ProviderClient<unknown>>;
  return clients[provider];
}
