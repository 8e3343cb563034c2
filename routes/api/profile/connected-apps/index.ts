import { type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { listConnectedApps } from "@/lib/oauth/tokens.ts";
import { ConnectedAppList } from "@/lib/schemas/oauth.ts";
import { define } from "@/lib/state.ts";

/**
 * GET /api/profile/connected-apps — the apps the signed-in person connected over OAuth
 * (MCP clients that signed in by URL), each an approved grant, oldest first.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const user = requireUser(ctx.state.user);
    const { kv, now } = ctx.state.services;
    return Response.json({ apps: await listConnectedApps(kv, user.id, now()) }, {
      headers: { "cache-control": "no-store" },
    });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/profile/connected-apps",
  tag: "Agent keys",
  summary: "Your connected apps (OAuth)",
  description:
    "Apps you approved on the consent page (an MCP client that connected by URL), with the scopes you gave them and when they last called. What the **Connected apps** section of /profile shows.",
  auth: "session",
  responses: {
    "200": {
      description: "The apps",
      schema: ConnectedAppList,
      example: {
        apps: [{
          id: "grant_Zx8vN2pQ7rLm4sT1",
          clientName: "Claude Desktop",
          scopes: ["read", "write"],
          createdAt: 1700000000000,
          lastUsedAt: 1700000360000,
        }],
      },
    },
    "401": unauthorizedSession,
  },
}];
