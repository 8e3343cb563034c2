import { err, type OperationDoc, tooLarge, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { readJson } from "@/lib/http/body.ts";
import { getSettings, saveSettings } from "@/lib/profile/settings.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import { SettingsSchema, SettingsUpdateSchema } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/** GET/PUT /api/profile/settings: privacy settings and the AI avatar switch. */
export const handler = define.handlers({
  async GET(ctx) {
    const me = requireUser(ctx.state.user);
    return Response.json(await getSettings(ctx.state.services.kv, me.id));
  },
  async PUT(ctx) {
    const me = requireUser(ctx.state.user);
    // Not `asObject`: a body that is not an object is refused, not read as `{}`.
    const edit = parseInput(SettingsUpdateSchema, await readJson(ctx.req, { limit: 4096 }), {
      message: "Invalid settings",
    });
    return Response.json(await saveSettings(ctx.state.services.kv, me.id, edit));
  },
});

export const docs: OperationDoc[] = [
  {
    method: "get",
    path: "/api/profile/settings",
    tag: "Profiles",
    summary: "Your privacy settings and the AI avatar switch",
    auth: "session",
    responses: {
      "200": {
        description: "The settings",
        schema: SettingsSchema,
        example: {
          activityVisibility: "public",
          voteHistory: "private",
          debateArchive: "public",
          aiAvatar: false,
        },
      },
      "401": unauthorizedSession,
    },
  },
  {
    method: "put",
    path: "/api/profile/settings",
    tag: "Profiles",
    summary: "Change privacy settings or the AI avatar switch",
    description: "Send only the fields to change; unknown fields are refused.",
    auth: "session",
    body: SettingsUpdateSchema,
    responses: {
      "200": { description: "All settings after the change", schema: SettingsSchema },
      "400": err("Invalid settings (with `issues`)", "Invalid settings"),
      "401": unauthorizedSession,
      "413": tooLarge(4 * 1024),
    },
  },
];
