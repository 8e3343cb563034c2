import type { Withdrawal, WithdrawnKind } from "@/lib/moderation/withdrawn.ts";

/**
 * What the owner and moderators see on a debate or roundtable moderators withdrew: the
 * reason, and that nobody else can open it.
 */
export function WithdrawnBanner(
  { withdrawn, kind }: { withdrawn: Withdrawal; kind: WithdrawnKind },
) {
  return (
    <p class="alert alert-warn" role="note" data-testid="withdrawn-banner">
      <strong>Withdrawn by moderators:</strong> <span dir="auto">{withdrawn.reason}</span>
      <br />
      <span class="hint">
        Only its owner and the moderators can open this {kind}; it is left out of public lists.
      </span>
    </p>
  );
}

/**
 * A moderator's form on a debate's or roundtable's page: withdraw it with a reason, or
 * restore it. A plain form post (lib/http/withdrawal.ts `withdrawalFormPost`), so it works
 * by keyboard and without script; `error` is a refused post's message, brought back by the
 * redirect.
 */
export function WithdrawalForm(
  { kind, id, withdrawn, error }: {
    kind: WithdrawnKind;
    id: string;
    withdrawn: Withdrawal | null;
    error: string | null;
  },
) {
  const action = withdrawn ? "restore" : "withdraw";
  return (
    <section class="card stack" aria-labelledby="withdrawal-h" data-testid="withdrawal-form">
      <h2 id="withdrawal-h" class="h3">Moderation</h2>
      {error && <p class="alert alert-error" role="alert">{error}</p>}
      <form method="post" action={`/${kind}s/${encodeURIComponent(id)}`} class="stack">
        <input type="hidden" name="action" value={action} />
        <label>
          {withdrawn ? "Why restore it (logged)" : "Why withdraw it (shown to its owner, logged)"}
          <textarea name="reason" maxLength={500} required rows={2} />
        </label>
        <p>
          <button type="submit" class={withdrawn ? "btn" : "btn btn-danger"}>
            {withdrawn ? `Restore this ${kind}` : `Withdraw this ${kind}`}
          </button>
        </p>
      </form>
    </section>
  );
}
