import { readJson, validate } from "@/lib/http/body.ts";
import { requireUser } from "@/lib/http/auth.ts";
import type { Handlers } from "@/lib/fresh/types.ts";
import { getSettings, saveSettings } from "@/lib/profile/settings.ts";
import { SettingsUpdateSchema } from "@/lib/schemas/profile.ts";
import type { AppState } from "@/lib/state.ts";

/** GET/PUT /api/profile/settings: privacy settings and the AI avatar switch. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const me = requireUser(ctx.state.user);
    return Response.json(await getSettings(ctx.state.services.kv, me.id));
  },
  async PUT(req, ctx) {
    const me = requireUser(ctx.state.user);
    const edit = validate(
      SettingsUpdateSchema,
      await readJson(req, { limit: 4096 }),
      "Invalid settings",
    );
    return Response.json(await saveSettings(ctx.state.services.kv, me.id, edit));
  },
};
