import { page } from "@/lib/fresh/mod.ts";
import { Avatar } from "@/components/Avatar.tsx";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { Head } from "@/lib/fresh/head.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import {
  listNotifications,
  markRead,
  type NotificationsPage,
  type NotificationView,
} from "@/lib/notifications/notifications.ts";
import { NotificationsQuery } from "@/lib/schemas/notifications.ts";
import { queryObject } from "@/lib/schemas/parse.ts";
import { define } from "@/lib/state.ts";
import { signInHref } from "@/components/SignInPrompt.tsx";

interface Data {
  page: NotificationsPage;
  now: number;
}

/** /notifications — your notifications grouped by day, with mark one / all read. */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const user = ctx.state.user;
    if (!user) {
      return ctx.redirect(signInHref(ctx.url), 303);
    }
    const parsed = NotificationsQuery.safeParse(queryObject(ctx.url));
    const cursor = parsed.success ? parsed.data.cursor ?? null : null;
    const { kv, now } = ctx.state.services;
    const at = now();
    return page({ page: await listNotifications(kv, user.id, cursor, at), now: at });
  },
  /** The page's forms: mark one (`id`) or all read, then back (works without script). */
  async POST(ctx) {
    const user = ctx.state.user;
    if (!user) return ctx.redirect("/signin", 303);
    const form = new URLSearchParams(await readTextLimited(ctx.req, 4096));
    const id = form.get("id");
    const { kv, now } = ctx.state.services;
    await markRead(kv, user.id, id ? [id.slice(0, 200)] : undefined, now());
    return ctx.redirect("/notifications", 303);
  },
});

const DAY = 86_400_000;

/** "Today", "Yesterday", or the date (UTC). */
function dayLabel(at: number, now: number): string {
  const d = Math.floor(at / DAY);
  const today = Math.floor(now / DAY);
  if (d === today) return "Today";
  if (d === today - 1) return "Yesterday";
  return new Date(at).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

function sentence(n: NotificationView): string {
  const who = n.actor?.name ?? "Someone";
  switch (n.type) {
    case "answer":
      return `${who} answered`;
    case "reply":
      return `${who} replied to you on`;
    case "accepted":
      return `${who} accepted your answer on`;
    case "upvotes":
      return `Your post got ${n.count} ${n.count === 1 ? "upvote" : "upvotes"} today on`;
  }
}

export default define.page<typeof handler>(function NotificationsPage({ data }) {
  const { page, now } = data;
  const groups: { label: string; items: { n: NotificationView; href: string }[] }[] = [];
  page.notifications.forEach((n, i) => {
    const label = dayLabel(n.createdAt, now);
    if (groups.at(-1)?.label !== label) groups.push({ label, items: [] });
    groups.at(-1)!.items.push({ n, href: page.links[i] });
  });
  return (
    <>
      <Head>
        <title>Notifications · Parley</title>
      </Head>
      <div class="row page-heading">
        <h1>Notifications</h1>
        <p class="hint" data-testid="unread-count">{page.unread} unread</p>
        {page.unread > 0 && (
          <form method="post" action="/notifications">
            <button type="submit" class="btn btn-small">Mark all read</button>
          </form>
        )}
      </div>
      {groups.length === 0 && (
        <p class="empty">
          Nothing yet. You follow the questions you ask and answer; new answers, replies, accepted
          answers and upvotes show up here.
        </p>
      )}
      {groups.map((g) => (
        <section key={g.label} aria-label={g.label} class="notification-day">
          <h2>{g.label}</h2>
          <ul class="notifications">
            {g.items.map(({ n, href }) => (
              <li
                key={n.id}
                class={`card notification${n.read ? "" : " unread"}`}
                data-testid="notification"
              >
                {n.actor && <Avatar name={n.actor.name} src={n.actor.avatarUrl} />}
                <div>
                  <p>
                    {!n.read && <span class="visually-hidden">Unread:</span>} {sentence(n)}{" "}
                    {n.removed ? <span dir="auto">{n.title}</span> : (
                      // An unread one is marked read as it is followed.
                      <a
                        href={n.read ? href : `/notifications/open/${encodeURIComponent(n.id)}`}
                        dir="auto"
                      >
                        {n.title}
                      </a>
                    )}
                  </p>
                  {n.excerpt && <p class="hint">{n.excerpt}</p>}
                  <RelativeTime ms={n.createdAt} now={now} />
                </div>
                {!n.read && (
                  <form method="post" action="/notifications">
                    <input type="hidden" name="id" value={n.id} />
                    <button
                      type="submit"
                      class="btn btn-small"
                      aria-label={`Mark read: ${sentence(n)} ${n.title}`}
                    >
                      Mark read
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {page.nextCursor && (
        <nav class="pagination" aria-label="Notification pages">
          <a href={`/notifications?cursor=${encodeURIComponent(page.nextCursor)}`} rel="next">
            Older notifications
          </a>
        </nav>
      )}
    </>
  );
});
