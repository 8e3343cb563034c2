import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { favoriteStatuses, MAX_STATUS_IDS, toggleFavorite } from "@/lib/community/favorites.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import {
  FavoriteBody,
  FavoritesQuery,
  FavoriteStatuses,
  FavoriteToggleResult,
} from "@/lib/schemas/community.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/favorites?targetType=&targetIds=a,b — which of the ids the user favorited.
 * POST /api/favorites {targetId, targetType} — toggle (docs/interface.md#favorites's favorite table).
 */
export const handler = define.handlers({
  async GET(ctx) {
    const user = requireUser(ctx.state.user);
    const raw = ctx.url.searchParams.get("targetIds") ?? "";
    const listed = raw.split(",").map((s) => s.trim()).filter(Boolean);
    if (listed.length === 0) return Response.json({ statuses: {} });
    const { targetType } = parseInput(FavoritesQuery, queryObject(ctx.url), { in: "query" });
    if (listed.length > MAX_STATUS_IDS) {
      throw new HttpError(400, `At most ${MAX_STATUS_IDS} targetIds per request`);
    }
    const ids = [...new Set(listed)];
    if (ids.some((id) => id.length > 200)) throw new HttpError(400, "A target id is too long");
    const statuses = await favoriteStatuses(ctx.state.services.kv, user.id, targetType, ids);
    return Response.json({ statuses });
  },
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const body = await parseBody(ctx.req, FavoriteBody);
    const { kv, now, config } = ctx.state.services;
    const toggled = await toggleFavorite(kv, { ...body, userId: user.id }, now(), {
      limits: config.limits,
    });
    const { favorite } = orThrow(toggled, {
      not_found: [404, `The ${body.targetType} was not found`],
    });
    return Response.json(favorite);
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/favorites",
    tag: "Votes and favorites",
    summary: "Which of these targets the user favorited",
    description: "At most 200 ids. With no ids the answer is `{statuses: {}}`.",
    auth: "session",
    query: FavoritesQuery,
    responses: {
      "200": { description: "Favorite state per id", schema: FavoriteStatuses },
      "400": err("Bad targetType or more than 200 ids", "At most 200 targetIds per request"),
      "401": unauthorizedSession,
    },
  },
  {
    method: "post",
    path: "/api/favorites",
    tag: "Votes and favorites",
    summary: "Toggle a favorite",
    description:
      "At most one favorite per user and target, also under races; a message favorite records its question.",
    auth: "session",
    body: FavoriteBody,
    responses: {
      "200": { description: "The state after the call", schema: FavoriteToggleResult },
      "400": err("Bad targetType", 'targetType must be "question" or "message"'),
      "401": unauthorizedSession,
      "404": err("No such target", "The question was not found"),
    },
  },
];
