import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { orThrow, restrictedError } from "@/lib/http/outcome.ts";
import { getRoundtable } from "@/lib/roundtables/store.ts";
import { addInterjection } from "@/lib/roundtables/store.ts";
import { MAX_INTERJECTIONS } from "@/lib/roundtables/model.ts";
import { InterjectionRequestSchema } from "@/lib/schemas/roundtable.ts";
import { define } from "@/lib/state.ts";
import { z } from "zod";

const Accepted = z.object({
  ok: z.literal(true),
  id: z.string().meta({ description: "The interjection's id (`h<n>`)" }),
}).meta({ id: "InterjectionAccepted" });

/**
 * POST /api/roundtables/:id/interject {text, directTo?}: the host (the roundtable's owner)
 * speaks; the next turn takes it up — by `directTo`, who then speaks next.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { kv, now } = ctx.state.services;
    const user = requireUser(ctx.state.user);
    // The host's words are shown on the public page: a sanction stops them like a post.
    if (user.sanction) throw restrictedError(user.sanction);
    const body = await parseBody(ctx.req, InterjectionRequestSchema, { limit: 8 * 1024 });
    const rt = await getRoundtable(kv, ctx.params.id, now());
    // Only the host may interject; to anyone else the roundtable is not there to address.
    if (!rt || rt.userId !== user.id) throw new HttpError(404, "Roundtable not found");
    if (body.directTo && !rt.experts.some((e) => e.id === body.directTo)) {
      throw new HttpError(400, "directTo must be one of this roundtable's experts");
    }
    await enforceRateLimit(kv, "roundtable_interject", user.id, 20, 60_000, now());
    const r = orThrow(await addInterjection(kv, rt.id, body, now()), {
      finished: [409, "This roundtable has finished"],
      too_many: [429, `A roundtable takes at most ${MAX_INTERJECTIONS} interjections`],
    });
    return Response.json({ ok: true, id: r.interjection.id }, { status: 202 });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/roundtables/{id}/interject",
  tag: "Roundtables",
  summary: "Interject as the roundtable's host",
  description:
    `Only the roundtable's owner. The next turn takes the words up (an \`interjection\` event, then a statement whose \`replyTo\` is its id); with \`directTo\` that expert speaks next and answers. At most ${MAX_INTERJECTIONS} per roundtable, while it runs.`,
  auth: "session",
  pathParams: [{ name: "id", description: "Roundtable id (`rt_…`)" }],
  body: InterjectionRequestSchema,
  responses: {
    "202": { description: "Taken; the next turn answers it", schema: Accepted },
    "400": err("Invalid text, or directTo is not one of its experts", "Invalid request"),
    "401": unauthorizedSession,
    "403": err("You are silenced or suspended", "You are silenced until …"),
    "404": err("No such roundtable, or it is not yours", "Roundtable not found"),
    "409": err("The roundtable has finished", "This roundtable has finished"),
    "429": err("Too many interjections", "Rate limit exceeded"),
  },
}];
