import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { debateToJson, listUserDebates } from "@/lib/debates/store.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { failedWith } from "@/lib/http/errors.ts";
import { DebateHistory } from "@/lib/schemas/debate.ts";
import { define } from "@/lib/state.ts";

/** GET /api/debate/history: the signed-in user's 20 newest debates, newest first. */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const user = requireUser(ctx.state.user);
    try {
      const debates = await listUserDebates(kv, user.id, now());
      return Response.json(debates.map(debateToJson), {
        headers: { "cache-control": "private, no-store" },
      });
    } catch (err) {
      // A damaged store or failing disk is a 503 with its sentence, not the fixed 500.
      throw failedWith(err, "GET /api/debate/history failed", "Failed to load history");
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/debate/history",
  tag: "Debates",
  summary: "Your 20 newest debates, newest first",
  description:
    "A top-level array. An `in_progress` debate may have no messages yet and a null synthesis.",
  auth: "session",
  responses: {
    "200": { description: "Saved debates", schema: DebateHistory },
    "401": unauthorizedSession,
    "500": err("Storage failure", "Failed to load history"),
  },
}];
