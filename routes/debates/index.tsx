import { ArrowRight } from "@/components/icons.gen.ts";
import { z } from "zod";
import { HttpError, page } from "@/lib/fresh/mod.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { RoundtableItem } from "@/components/RoundtableItem.tsx";
import { DEBATE_STATUS_TEXT } from "@/components/debate_status.ts";
import { InvalidCursorError } from "@/lib/kv/atomic.ts";
import { listPublicDebates, type PublicDebateItem } from "@/lib/debates/public.ts";
import { listPublicRoundtables } from "@/lib/roundtables/access.ts";
import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
import { Head } from "@/lib/fresh/head.ts";
import { define } from "@/lib/state.ts";

/** Debates per page. */
export const PUBLIC_DEBATES_PAGE = 20;

const Query = z.object({
  sort: z.enum(["newest", "watched"]).catch("newest"),
  cursor: z.string().max(1000).optional().catch(undefined),
});

interface Data {
  sort: "newest" | "watched";
  items: PublicDebateItem[];
  cursor?: string;
  firstPage: boolean;
  /** The newest public roundtables, listed with the debates on the first page. */
  roundtables: RoundtableRecord[];
  now: number;
}

/** Public roundtables shown beside the debates (the rest are on /roundtables). */
const ROUNDTABLES_SHOWN = 5;

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const q = Query.parse(Object.fromEntries(ctx.url.searchParams));
    try {
      const r = await listPublicDebates(kv, q.sort, now(), {
        limit: PUBLIC_DEBATES_PAGE,
        cursor: q.cursor || undefined,
      });
      const roundtables = q.cursor ? [] : await listPublicRoundtables(kv, now(), ROUNDTABLES_SHOWN);
      return page({ sort: q.sort, ...r, firstPage: !q.cursor, roundtables, now: now() });
    } catch (e) {
      if (e instanceof InvalidCursorError) throw new HttpError(400, "That page link is not valid.");
      throw e;
    }
  },
});

function watchesText(n: number): string {
  return `Watched by ${n} ${n === 1 ? "member" : "members"}`;
}

/** /debates: public debates, newest first or most watched, paged. */
export default define.page<typeof handler>(function PublicDebatesPage({ data }) {
  const { sort, items, cursor, firstPage, roundtables, now } = data;
  const href = (s: string) => `/debates?sort=${s}`;
  return (
    <>
      <Head>
        <title>Public debates · Parley</title>
      </Head>
      <div class="page-head">
        <h1>Public debates</h1>
        <a class="btn" href="/debate">Start your own debate</a>
      </div>
      <p class="muted" data-testid="debates-watch-note">
        Debates whose owners keep their debate archive public. “Watched by” counts the signed-in
        members, other than the person who started it, who opened the debate.
      </p>
      <nav class="tabs" aria-label="Sort debates">
        <a href={href("newest")} aria-current={sort === "newest" ? "page" : undefined}>
          Newest
        </a>
        <a href={href("watched")} aria-current={sort === "watched" ? "page" : undefined}>
          Most watched
        </a>
      </nav>
      {items.length === 0
        ? (
          <p class="empty" data-testid="debates-empty">
            {sort === "watched"
              ? "No public debate has been watched yet."
              : firstPage
              ? "No public debates yet."
              : "No more public debates."} <a href="/debate">Start a debate</a>
          </p>
        )
        : (
          <ul class="list debate-history" data-testid="public-debates">
            {items.map((d) => (
              <li key={d.id} class="card debate-history-item" data-testid="public-debate">
                <h2 class="public-debate-title">
                  <a href={`/debates/${encodeURIComponent(d.id)}`} dir="auto">{d.topic}</a>
                </h2>
                <div class="meta">
                  <span>{d.agentName} vs {d.opponentName}</span>
                  <span class={`debate-status debate-status-${d.status}`}>
                    {DEBATE_STATUS_TEXT[d.status] ?? d.status}
                  </span>
                  <span data-testid="debate-watches">{watchesText(d.watches)}</span>
                  <RelativeTime ms={d.createdAt} now={now} />
                </div>
              </li>
            ))}
          </ul>
        )}
      {firstPage && (
        <section aria-labelledby="public-roundtables-title" data-testid="debates-roundtables">
          <h2 id="public-roundtables-title">Public roundtables</h2>
          {roundtables.length === 0
            ? (
              <p class="empty">
                No public roundtables yet. <a href="/roundtables">Host one</a>
              </p>
            )
            : (
              <ul class="list debate-history">
                {roundtables.map((r) => (
                  <RoundtableItem
                    key={r.id}
                    r={r}
                    now={now}
                    testId="public-roundtable"
                    prefix="Roundtable: "
                    suffix=" (AI experts)"
                  />
                ))}
              </ul>
            )}
          <p>
            <a href="/roundtables">All roundtables</a>
          </p>
        </section>
      )}
      {(cursor || !firstPage) && (
        <nav class="pagination" aria-label="Pages">
          {!firstPage ? <a class="btn btn-small" href={href(sort)}>First page</a> : <span />}
          {cursor
            ? (
              <a
                class="btn btn-small"
                rel="next"
                href={`${href(sort)}&cursor=${encodeURIComponent(cursor)}`}
              >
                {sort === "newest" ? "Older" : "Next"}{" "}
                <ArrowRight class="icon" aria-hidden="true" />
              </a>
            )
            : <span />}
        </nav>
      )}
    </>
  );
});
