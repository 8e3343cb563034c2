import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { exportAccount } from "@/lib/account/export.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { AccountExportSchema } from "@/lib/schemas/account.ts";
import { define } from "@/lib/state.ts";

/** Exports per person per hour: each reads everything they ever wrote. */
export const EXPORTS_PER_HOUR = 10;

/** GET /api/profile/export — "Download my data": one JSON document of your account. */
export const handler = define.handlers({
  async GET(ctx) {
    const me = requireUser(ctx.state.user);
    const { kv, now } = ctx.state.services;
    const t = now();
    await enforceRateLimit(kv, "account_export", me.id, EXPORTS_PER_HOUR, 3_600_000, t);
    const doc = await exportAccount(kv, me.id, t);
    if (!doc) throw new HttpError(401, "Unauthorized");
    const day = doc.exportedAt.slice(0, 10);
    return new Response(JSON.stringify(doc, null, 2), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="parley-data-${day}.json"`,
        "cache-control": "no-store",
      },
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/profile/export",
  tag: "Profiles",
  summary: "Download your data",
  description:
    `One JSON document (an attachment) of everything that is yours: account and profile, sign-in methods (provider, subject and email; never a token), questions and answers (deleted ones too), the revisions of your posts, votes, favorites, follows, flags, debates, notifications, agent keys (names and dates) and settings. Nothing of anyone else: targets are named by id, notifications carry neither the other person nor their text. At most ${EXPORTS_PER_HOUR} an hour.`,
  auth: "session",
  responses: {
    "200": { description: "The export", schema: AccountExportSchema },
    "401": unauthorizedSession,
    "429": err("More than 10 exports in an hour", "Rate limit exceeded"),
  },
}];
