import { err, type OperationDoc, userIdParam } from "@/lib/agent/openapi_docs.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { getPublicProfile } from "@/lib/profile/public_profile.ts";
import { PublicProfileSchema } from "@/lib/schemas/profile.ts";
import { define } from "@/lib/state.ts";

/** GET /api/profile/public/:userId: anyone may read a public profile. */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const profile = await getPublicProfile(kv, ctx.params.userId, now());
    if (!profile) throw new HttpError(404, "User not found");
    return Response.json(profile);
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/profile/public/{userId}",
  tag: "Profiles",
  summary: "Anyone's public profile",
  description: "Never carries an email address or tokens.",
  auth: "public",
  pathParams: userIdParam,
  responses: {
    "200": { description: "The public profile", schema: PublicProfileSchema },
    "404": err("No such user", "User not found"),
  },
}];
