/**
 * A moderator withdraws or restores a debate or roundtable at the HTTP edge: the JSON
 * routes `POST /api/mod/debates/:id` and `POST /api/mod/roundtables/:id`, and the plain
 * form a moderator sees on `/debates/:id` and `/roundtables/:id` (no script needed). Both
 * call lib/moderation/withdrawals.ts.
 *
 * @module
 */
import { err, type OperationDoc, unauthorizedSession } from "../agent/openapi_docs.ts";
import { HttpError } from "../fresh/error.ts";
import { setWithdrawal, type WithdrawalState } from "../moderation/withdrawals.ts";
import type { WithdrawnKind } from "../moderation/withdrawn.ts";
import { WithdrawalBody, WithdrawalStateSchema } from "../schemas/moderation.ts";
import type { Services } from "../services.ts";
import type { SessionUser } from "../state.ts";
import { MODERATORS_ONLY, requireModerator } from "./auth.ts";
import { readTextLimited } from "./body.ts";
import type { z } from "zod";

/** The 404 of each kind: the same words its read answers with. */
const NOT_FOUND: Record<WithdrawnKind, string> = {
  debate: "Debate not found",
  roundtable: "Roundtable not found",
};

/**
 * Apply `body` to the debate or roundtable `id` as `moderator` (already checked to be
 * one); its state after it, or a 404 {@link HttpError}.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * import type { SessionUser } from "@/lib/state.ts";
 * declare const services: Services;
 * declare const mod: SessionUser;
 * const state = await applyWithdrawal(services, mod, "debate", "debate_1_x", {
 *   action: "withdraw",
 *   reason: "The topic names a private person",
 * });
 * ```
 */
export async function applyWithdrawal(
  services: Pick<Services, "kv" | "now">,
  moderator: Pick<SessionUser, "id" | "name">,
  kind: WithdrawnKind,
  id: string,
  body: z.infer<typeof WithdrawalBody>,
): Promise<WithdrawalState> {
  const r = await setWithdrawal(services.kv, {
    moderator: { id: moderator.id, name: moderator.name },
    kind,
    id,
    action: body.action,
    reason: body.reason,
  }, { now: services.now() });
  if (!r.ok) throw new HttpError(404, NOT_FOUND[kind]);
  return r.state;
}

/**
 * The moderator form's POST on a debate's or roundtable's page: moderators only (401 /
 * 403; an unknown id 404), then back to the page with a 303 — the page then shows the
 * banner, or no longer does; a refused form (no reason, too long) comes back with its
 * message in `?withdrawalError=`.
 *
 * @example
 * ```ts
 * import type { Services } from "@/lib/services.ts";
 * import type { SessionUser } from "@/lib/state.ts";
 * declare const req: Request;
 * declare const services: Services;
 * declare const user: SessionUser | null;
 * const res = await withdrawalFormPost(req, services, user, "roundtable", "rt_1_x");
 * ```
 */
export async function withdrawalFormPost(
  req: Request,
  services: Pick<Services, "kv" | "config" | "now">,
  user: SessionUser | null,
  kind: WithdrawnKind,
  id: string,
): Promise<Response> {
  const mod = await requireModerator(services, user);
  const form = Object.fromEntries(new URLSearchParams(await readTextLimited(req, 4096)));
  const back = `/${kind}s/${encodeURIComponent(id)}`;
  const parsed = WithdrawalBody.safeParse(form);
  if (parsed.success) await applyWithdrawal(services, mod, kind, id, parsed.data);
  const location = parsed.success
    ? back
    : `${back}?withdrawalError=${encodeURIComponent(parsed.error.issues[0].message)}`;
  return new Response(null, { status: 303, headers: { location } });
}

/**
 * The OpenAPI docs of `POST /api/mod/<kind>s/:id`.
 *
 * @example
 * ```ts
 * const docs = withdrawalDocs("debate");
 * docs[0].path; // "/api/mod/debates/{id}"
 * ```
 */
export function withdrawalDocs(kind: WithdrawnKind): OperationDoc[] {
  const noun = kind === "debate" ? "debate" : "roundtable";
  return [{
    method: "post",
    path: `/api/mod/${kind}s/{id}`,
    tag: "Moderation",
    summary: `Withdraw or restore a ${noun} (moderators)`,
    description:
      `\`withdraw\`: the ${noun} reads as missing (404) to everyone but its owner and moderators — its page, \`GET /api/${kind}s/{id}\` and its events, the public lists and the sitemap — until \`restore\`. Its owner and moderators still open its page, which shows "Withdrawn by moderators: <reason>". \`reason\` (1–500 characters) is shown to the owner and kept in the moderation log, where each action is logged. Withdrawing again replaces the reason. The answer is the ${noun}'s state.`,
    auth: "session",
    pathParams: [{
      name: "id",
      description: kind === "debate" ? "Debate id (`debate_…`)" : "Roundtable id (`rt_…`)",
    }],
    body: WithdrawalBody,
    responses: {
      "200": {
        description: `The ${noun}'s state after the action`,
        schema: WithdrawalStateSchema,
        example: {
          type: kind,
          id: kind === "debate" ? "debate_1779667200000_k3j9x0qa2m" : "rt_1779667200000_k3j9x0qa2m",
          withdrawn: {
            reason: "The topic names a private person",
            at: 1779667200000,
            by: { id: "u_mod", name: "Mo" },
          },
        },
      },
      "400": err("Bad body", 'action must be "withdraw" or "restore"'),
      "401": unauthorizedSession,
      "403": err("Not a moderator", MODERATORS_ONLY),
      "404": err(`No such ${noun}`, NOT_FOUND[kind]),
    },
  }];
}
