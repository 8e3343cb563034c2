/**
 * Apps registered with Parley's authorization server (RFC 7591 dynamic registration):
 * public clients only — no secret, PKCE proves each exchange — identified by an opaque
 * `client_id`. A registration never changes; an app that loses its id registers again.
 *
 * @module
 */
import { randomToken } from "../ids.ts";
import { commit } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";

/** A registered app. */
export interface OAuthClient {
  id: string;
  /** Self-declared: the consent page says Parley does not vouch for it. */
  name: string;
  redirectUris: string[];
  createdAt: number;
}

/** What an app registers with (already validated: lib/schemas/oauth.ts). */
export interface ClientRegistration {
  name: string;
  redirectUris: string[];
}

/**
 * Register an app.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const client = await registerClient(kv, {
 *   name: "Claude Desktop",
 *   redirectUris: ["http://127.0.0.1:33418/callback"],
 * }, Date.now());
 * client.id; // "client_…"
 * ```
 */
export async function registerClient(
  kv: Deno.Kv,
  registration: ClientRegistration,
  now: number,
): Promise<OAuthClient> {
  const client: OAuthClient = {
    id: `client_${randomToken(16)}`,
    name: registration.name,
    redirectUris: [...new Set(registration.redirectUris)],
    createdAt: now,
  };
  await commit(kv, (op) => op.set(keys.oauthClient(client.id), client));
  return client;
}

/**
 * A registered app, or null (also for an id no registration could have).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const client = await getClient(kv, "client_abc");
 * ```
 */
export async function getClient(kv: Deno.Kv, clientId: string): Promise<OAuthClient | null> {
  if (!isLookupId(clientId)) return null;
  return (await kv.get<OAuthClient>(keys.oauthClient(clientId))).value;
}
