import { page } from "@/lib/fresh/mod.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { Head } from "@/lib/fresh/head.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { requireModerator } from "@/lib/http/auth.ts";
import { MOD_FAILURES, orThrow } from "@/lib/http/outcome.ts";
import {
  moderate,
  modLog,
  type ModLogEntry,
  modQueue,
  type ModQueueItem,
} from "@/lib/moderation/moderation.ts";
import { ModActionBody } from "@/lib/schemas/moderation.ts";
import { FLAG_WEIGHT_TO_HIDE } from "@/lib/moderation/standing.ts";
import { CursorQuery } from "@/lib/schemas/moderation.ts";
import { parseInput, queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";
import { untilInWords } from "@/lib/moderation/sanctions.ts";

interface Data {
  queue: ModQueueItem[];
  log: ModLogEntry[];
  nextCursor: string | null;
  done: string | null;
  now: number;
}

/** /mod — the moderation queue with its actions, and the log (moderators only). */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { services } = ctx.state;
    await requireModerator(services, ctx.state.user);
    const parsed = CursorQuery.safeParse(queryObject(ctx.url));
    const cursor = parsed.success ? parsed.data.cursor ?? null : null;
    const [queue, log] = await Promise.all([
      modQueue(services.kv),
      modLog(services.kv, cursor),
    ]);
    return page({
      queue,
      log: log.entries,
      nextCursor: log.nextCursor,
      done: ctx.url.searchParams.get("done"),
      now: services.now(),
    });
  },
  /** The queue's buttons: a plain form post, then back to the page (no script needed). */
  async POST(ctx) {
    const { services } = ctx.state;
    const mod = await requireModerator(services, ctx.state.user);
    const form = Object.fromEntries(new URLSearchParams(await readTextLimited(ctx.req, 4096)));
    const body = parseInput(ModActionBody, form);
    orThrow(
      await moderate(services.kv, { ...body, moderator: { id: mod.id, name: mod.name } }, {
        now: services.now(),
      }),
      MOD_FAILURES,
    );
    return ctx.redirect(`/mod?done=${encodeURIComponent(body.action)}`, 303);
  },
});

const REASON_LABEL: Record<string, string> = {
  spam: "Spam",
  offensive: "Offensive",
  off_topic: "Off topic",
  other: "Other",
};

function postHref(item: { targetType: string; targetId: string; questionId: string }): string {
  const q = `/questions/${encodeURIComponent(item.questionId)}`;
  return item.targetType === "question" ? q : `${q}#${encodeURIComponent(item.targetId)}`;
}

function ActionButtons({ item }: { item: ModQueueItem }) {
  const actions = item.hidden
    ? [["restore", "Restore"], ["dismiss", "Dismiss flags"], ["delete", "Delete"]]
    : [["hide", "Hide"], ["dismiss", "Dismiss flags"], ["delete", "Delete"]];
  return (
    <div class="row actions">
      {actions.map(([action, label]) => (
        <form method="post" action="/mod" key={action}>
          <input type="hidden" name="targetType" value={item.targetType} />
          <input type="hidden" name="targetId" value={item.targetId} />
          <input type="hidden" name="action" value={action} />
          <button
            type="submit"
            class={`btn${action === "delete" ? " btn-danger" : ""}`}
            aria-label={`${label}: ${item.targetType} by ${item.author.name}`}
          >
            {label}
          </button>
        </form>
      ))}
    </div>
  );
}

export default define.page<typeof handler>(function ModPage({ data }) {
  const { queue, log, now } = data;
  return (
    <>
      <Head>
        <title>Moderation · Parley</title>
      </Head>
      <h1>Moderation</h1>
      {data.done && <p class="alert alert-ok" role="status">Done: {data.done}.</p>}
      <section aria-labelledby="queue-heading">
        <h2 id="queue-heading">Queue</h2>
        {queue.length === 0
          ? <p class="empty">Nothing is waiting for review.</p>
          : (
            <ol class="mod-queue">
              {queue.map((item) => (
                <li key={`${item.targetType}:${item.targetId}`} class="card" data-testid="mod-item">
                  <p>
                    <strong>{item.targetType === "question" ? "Question" : "Answer"}</strong> by
                    {" "}
                    {item.author.name} in{" "}
                    <a href={postHref(item)}>{item.questionTitle || item.questionId}</a>
                    {item.hidden && <span class="badge">Hidden</span>}
                  </p>
                  <blockquote>{item.excerpt}</blockquote>
                  <p class="hint">
                    {item.flags} {item.flags === 1 ? "flag" : "flags"}:{" "}
                    {Object.entries(item.reasons).map(([r, n]) =>
                      `${REASON_LABEL[r] ?? r} ×${n}`
                    )
                      .join(", ")}
                  </p>
                  <p class="hint" data-testid="mod-flaggers">
                    Weight {item.weight} of {FLAG_WEIGHT_TO_HIDE}
                    {item.flaggers.length > 0 && (
                      <>
                        {" "}· flagged by {item.flaggers.map((f, i) => (
                          <span key={f.id}>
                            {i > 0 && ", "}
                            {f.name}{" "}
                            <span class="badge" data-standing={f.standing}>
                              {f.standing === "new" ? "new account" : "established"}
                            </span>
                          </span>
                        ))}
                      </>
                    )}
                  </p>
                  {item.notes.length > 0 && (
                    <ul class="hint">{item.notes.map((n, i) => <li key={i}>“{n}”</li>)}</ul>
                  )}
                  <ActionButtons item={item} />
                </li>
              ))}
            </ol>
          )}
      </section>
      <section aria-labelledby="log-heading">
        <h2 id="log-heading">Moderation log</h2>
        {log.length === 0 ? <p class="empty">No actions yet.</p> : (
          // Scrolls inside its own box on a phone; focusable so the keyboard can scroll it.
          <div class="table-scroll" role="region" aria-label="Moderation log table" tabindex={0}>
            <table class="mod-log">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Moderator</th>
                  <th scope="col">Action</th>
                  <th scope="col">Post or person</th>
                </tr>
              </thead>
              <tbody>
                {log.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <RelativeTime ms={e.at} now={now} />
                    </td>
                    <td>{e.moderator.name}</td>
                    <td>
                      {e.action}
                      {e.targetType === "user" && e.action !== "lift" && (
                        <span class="hint">
                          {" "}
                          {e.until ? `until ${untilInWords(e.until)}` : "until lifted"}
                        </span>
                      )}
                      {e.reason && <span class="hint">: {e.reason}</span>}
                    </td>
                    <td>
                      {e.targetType === "user"
                        ? <a href={`/u/${encodeURIComponent(e.targetId)}`}>person {e.targetId}</a>
                        : <a href={postHref(e)}>{e.targetType} {e.targetId}</a>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data.nextCursor && (
          <a href={`/mod?cursor=${encodeURIComponent(data.nextCursor)}`}>Older actions</a>
        )}
      </section>
    </>
  );
});
