import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { identitySummary, listIdentities, unbindIdentity } from "@/lib/auth/identities.ts";
import { isProviderId } from "@/lib/auth/providers.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { IdentityList, Ok, UnbindQuery } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

const UNBIND_ERRORS = {
  not_found: [404, "That provider is not bound to your account"],
  last: [409, "Cannot unbind your only sign-in method"],
} as const;

/**
 * The signed-in user's bound provider accounts.
 * - GET → `{identities: [{provider, providerAccountId, name, avatar, createdAt, updatedAt}]}`
 * - DELETE `?provider=…` → `{ok: true}`; 404 when not bound; 409 for the last identity.
 * - POST (HTML form `provider=…`, the profile page without JavaScript) → unbind, then
 *   303 to `/profile?unbind=success|failed…`.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const user = requireUser(ctx.state.user);
    const identities = await listIdentities(ctx.state.services.kv, user.id);
    return Response.json({ identities: identities.map(identitySummary) }, {
      headers: { "cache-control": "no-store" },
    });
  },
  async DELETE(ctx) {
    const user = requireUser(ctx.state.user);
    const { provider } = parseInput(UnbindQuery, queryObject(ctx.url), {
      in: "query",
      message: "provider must be provider_a, provider_b or provider_c",
    });
    const outcome = await unbindIdentity(ctx.state.services.kv, user.id, provider);
    orThrow(outcome, UNBIND_ERRORS);
    return Response.json({ ok: true });
  },
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const form = new URLSearchParams(await readTextLimited(ctx.req, 4096));
    const provider = form.get("provider");
    let q: URLSearchParams;
    if (!isProviderId(provider)) {
      q = new URLSearchParams({ unbind: "failed", reason: "invalid_provider" });
    } else {
      const outcome = await unbindIdentity(ctx.state.services.kv, user.id, provider);
      q = new URLSearchParams(
        outcome.ok
          ? { unbind: "success", provider }
          : { unbind: "failed", reason: outcome.reason, provider },
      );
    }
    return ctx.redirect(`/profile?${q}`, 303);
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/profile/identities",
    tag: "Profiles",
    summary: "Your bound sign-in accounts (never tokens)",
    auth: "session",
    responses: {
      "200": { description: "Bound identities", schema: IdentityList },
      "401": unauthorizedSession,
    },
  },
  {
    method: "delete",
    path: "/api/profile/identities",
    tag: "Profiles",
    summary: "Unbind a sign-in account",
    auth: "session",
    query: UnbindQuery,
    responses: {
      "200": { description: "Unbound", schema: Ok, example: { ok: true } },
      "400": err("Bad provider"),
      "401": unauthorizedSession,
      "404": err("Not bound", "That provider is not bound to your account"),
      "409": err("Your only sign-in method", "Cannot unbind your only sign-in method"),
    },
  },
];
