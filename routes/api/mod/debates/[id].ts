import { requireModerator } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { applyWithdrawal, withdrawalDocs } from "@/lib/http/withdrawal.ts";
import { WithdrawalBody } from "@/lib/schemas/moderation.ts";
import { define } from "@/lib/state.ts";

/** POST /api/mod/debates/:id — withdraw or restore a debate (moderators). */
export const handler = define.handlers({
  async POST(ctx) {
    const { services } = ctx.state;
    const mod = await requireModerator(services, ctx.state.user);
    const body = await parseBody(ctx.req, WithdrawalBody, { limit: 4 * 1024 });
    return Response.json(await applyWithdrawal(services, mod, "debate", ctx.params.id, body));
  },
});

export const docs = withdrawalDocs("debate");
