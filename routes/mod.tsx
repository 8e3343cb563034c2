import { HttpError, page } from "@/lib/fresh/mod.ts";
import { signInHref } from "@/components/SignInPrompt.tsx";
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
import { describePosts, type PostDescription } from "@/lib/moderation/describe.ts";

/** A signed-in person who does not moderate: a page that says so (403), not a JSON body. */
interface Forbidden {
  forbidden: true;
}

interface Data {
  forbidden?: false;
  queue: ModQueueItem[];
  log: ModLogEntry[];
  /** The queue's and the log's posts in words, by target id. */
  posts: Map<string, PostDescription>;
  nextCursor: string | null;
  /** The action just taken, to confirm it in words (with Undo where it can be undone). */
  done: { action: string; targetType: string; targetId: string } | null;
  now: number;
}

/** The confirmation after an action: what happened, and which action undoes it. */
const DONE: Record<string, { said: string; undo?: [string, string] }> = {
  hide: { said: "Hidden.", undo: ["restore", "Undo"] },
  restore: { said: "Restored.", undo: ["hide", "Undo"] },
  dismiss: { said: "Flags dismissed." },
  delete: { said: "Deleted." },
};

/** /mod — the moderation queue with its actions, and the log (moderators only). */
export const handler = define.handlers<Data | Forbidden>({
  async GET(ctx) {
    const { services } = ctx.state;
    // A page, unlike the API: signed out, sign in first; not a moderator, a page saying so.
    if (!ctx.state.user) return ctx.redirect(signInHref(ctx.url), 303);
    try {
      await requireModerator(services, ctx.state.user);
    } catch (err) {
      if (err instanceof HttpError && err.status === 403) {
        return page({ forbidden: true } as const, { status: 403 });
      }
      throw err;
    }
    const parsed = CursorQuery.safeParse(queryObject(ctx.url));
    const cursor = parsed.success ? parsed.data.cursor ?? null : null;
    const [queue, log] = await Promise.all([
      modQueue(services.kv),
      modLog(services.kv, cursor),
    ]);
    const q = ctx.url.searchParams;
    // `?done=…&type=…&id=…` from the action's redirect; anything else is ignored.
    const done = ModActionBody.safeParse({
      action: q.get("done") ?? undefined,
      targetType: q.get("type") ?? undefined,
      targetId: q.get("id") ?? undefined,
    });
    return page({
      queue,
      log: log.entries,
      posts: await describePosts(services.kv, [...queue, ...log.entries]),
      nextCursor: log.nextCursor,
      done: done.success ? done.data : null,
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
    const done = new URLSearchParams({
      done: body.action,
      type: body.targetType,
      id: body.targetId,
    });
    return ctx.redirect(`/mod?${done}`, 303);
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

/** One queue action as a plain form button. */
function ActionForm(
  { target, action, label, name }: {
    target: { targetType: string; targetId: string };
    action: string;
    label: string;
    name: string;
  },
) {
  return (
    <form method="post" action="/mod">
      <input type="hidden" name="targetType" value={target.targetType} />
      <input type="hidden" name="targetId" value={target.targetId} />
      <input type="hidden" name="action" value={action} />
      <button
        type="submit"
        class={`btn${action === "delete" ? " btn-danger" : ""}`}
        aria-label={name}
      >
        {label}
      </button>
    </form>
  );
}

const ACTION_LABEL: Record<string, string> = {
  hide: "Hidden",
  restore: "Restored",
  dismiss: "Flags dismissed",
  delete: "Deleted",
  silence: "Silenced",
  suspend: "Suspended",
  lift: "Sanction lifted",
  withdraw: "Withdrawn",
};

const KIND_LABEL = { question: "Question", answer: "Answer", reply: "Reply" } as const;

function ActionButtons({ item, kind }: { item: ModQueueItem; kind: string }) {
  const actions = item.hidden
    ? [["restore", "Restore"], ["dismiss", "Dismiss flags"], ["delete", "Delete"]]
    : [["hide", "Hide"], ["dismiss", "Dismiss flags"], ["delete", "Delete"]];
  return (
    <div class="row actions">
      {actions.map(([action, label]) => (
        <ActionForm
          key={action}
          target={item}
          action={action}
          label={label}
          name={`${label}: ${kind} by ${item.author.name}`}
        />
      ))}
    </div>
  );
}

/** A logged post by its kind, its question's title and an excerpt (its id if it is gone). */
function LoggedPost({ entry, post }: { entry: ModLogEntry; post?: PostDescription }) {
  if (!post) return <a href={postHref(entry)}>{entry.targetType} {entry.targetId}</a>;
  return (
    <>
      {KIND_LABEL[post.kind]} in <a href={postHref(entry)} dir="auto">{post.questionTitle}</a>
      {post.kind !== "question" && (
        <span class="hint log-excerpt" dir="auto">
          {" “"}
          {post.excerpt}”
        </span>
      )}
    </>
  );
}

export default define.page<typeof handler>(function ModPage({ data }) {
  if (data.forbidden) {
    return (
      <>
        <Head>
          <title>Moderators only · Parley</title>
        </Head>
        <div class="empty">
          <h1>Moderators only</h1>
          <p>This page is for the site's moderators.</p>
          <p>
            <a class="btn btn-primary" href="/">Back to the questions</a>
          </p>
        </div>
      </>
    );
  }
  const { queue, log, now, posts, done } = data;
  const confirmed = done && DONE[done.action];
  return (
    <>
      <Head>
        <title>Moderation · Parley</title>
      </Head>
      <h1>Moderation</h1>
      {done && confirmed && (
        <div class="alert alert-ok row" role="status" data-testid="mod-done">
          <span>{confirmed.said}</span>
          {confirmed.undo && (
            <ActionForm
              target={done}
              action={confirmed.undo[0]}
              label={confirmed.undo[1]}
              name={`Undo: ${confirmed.undo[0]} it again`}
            />
          )}
        </div>
      )}
      <section aria-labelledby="queue-heading">
        <h2 id="queue-heading">Queue</h2>
        {queue.length === 0
          ? <p class="empty">Nothing is waiting for review.</p>
          : (
            <ol class="mod-queue">
              {queue.map((item) => (
                <li key={`${item.targetType}:${item.targetId}`} class="card" data-testid="mod-item">
                  <p>
                    <strong data-testid="mod-kind">
                      {KIND_LABEL[posts.get(item.targetId)?.kind ?? "answer"]}
                    </strong>{" "}
                    by {item.author.name} in{" "}
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
                  <ActionButtons
                    item={item}
                    kind={posts.get(item.targetId)?.kind ?? "answer"}
                  />
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
                      {ACTION_LABEL[e.action] ?? e.action}
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
                        : e.targetType === "debate" || e.targetType === "roundtable"
                        ? (
                          <a href={`/${e.targetType}s/${encodeURIComponent(e.targetId)}`}>
                            {e.targetType} {e.targetId}
                          </a>
                        )
                        : <LoggedPost entry={e} post={posts.get(e.targetId)} />}
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
