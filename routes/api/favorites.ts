import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { orThrow } from "@/lib/http/outcome.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { favoriteStatuses, MAX_STATUS_IDS, toggleFavorite } from "@/lib/community/favorites.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { FavoriteBody, TargetType } from "@/lib/schemas/community.ts";
import { asObject, parseInput } from "@/lib/schemas/parse.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * GET /api/favorites?targetType=&targetIds=a,b — which of the ids the user favorited.
 * POST /api/favorites {targetId, targetType} — toggle (SPEC.md's favorite table).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const user = requireUser(ctx.state.user);
    const raw = ctx.url.searchParams.get("targetIds") ?? "";
    const listed = raw.split(",").map((s) => s.trim()).filter(Boolean);
    if (listed.length === 0) return Response.json({ statuses: {} });
    const targetType = parseInput(TargetType, ctx.url.searchParams.get("targetType"));
    if (listed.length > MAX_STATUS_IDS) {
      throw new HttpError(400, `At most ${MAX_STATUS_IDS} targetIds per request`);
    }
    const ids = [...new Set(listed)];
    if (ids.some((id) => id.length > 200)) throw new HttpError(400, "A target id is too long");
    const statuses = await favoriteStatuses(ctx.state.services.kv, user.id, targetType, ids);
    return Response.json({ statuses });
  },
  async POST(req, ctx) {
    const user = requireUser(ctx.state.user);
    const body = parseInput(FavoriteBody, asObject(await readJson(req)));
    const { kv, now, config } = ctx.state.services;
    const toggled = await toggleFavorite(kv, { ...body, userId: user.id }, now(), {
      limits: config.limits,
    });
    const { favorite } = orThrow(toggled, {
      not_found: [404, `The ${body.targetType} was not found`],
    });
    return Response.json(favorite);
  },
};
