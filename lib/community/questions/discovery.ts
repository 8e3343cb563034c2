/**
 * The home page's discovery sidebar: hot questions, a tag cloud and an unanswered question
 * to try, all derived from ONE bounded read — the newest {@link HOT_WINDOW} questions, the
 * same window the hot feed ranks — and reused for {@link DISCOVERY_CACHE_MS} per store, so
 * the sidebar costs the feed nothing on most loads. There is no tag count index: the cloud
 * counts the tags of that window (recent use, which is what a visitor wants to see).
 *
 * @module
 */
import { cachedRead } from "../read_cache.ts";
import { HOT_WINDOW, hotScore, isUnanswered, listQuestionsPage } from "./feed.ts";
import { tagKey } from "./model.ts";

/** How long one sidebar read is reused (ms). */
export const DISCOVERY_CACHE_MS = 30_000;
/** Hot questions shown. */
export const DISCOVERY_HOT = 5;
/** Tags in the cloud, at most. */
export const DISCOVERY_TAGS = 20;
/** Unanswered questions a random pick is drawn from, at most. */
export const DISCOVERY_UNANSWERED = 50;

/** A question as the sidebar links it. */
export interface DiscoveryLink {
  id: string;
  title: string;
}

/** What the sidebar shows. */
export interface Discovery {
  hot: DiscoveryLink[];
  /** Most used tags first (ties by name), with their counts in the window. */
  tags: { tag: string; count: number }[];
  /** Newest unanswered questions of the window. */
  unanswered: DiscoveryLink[];
  /**
   * One of `unanswered`, drawn at random when this snapshot was read: the suggestion for as
   * long as the snapshot is reused, so the home page renders the same bytes until something
   * changes (and the page cache keeps its compressed copy: lib/http/page_cache.ts).
   */
  pick: DiscoveryLink | null;
}

/**
 * The sidebar's data, from the newest {@link HOT_WINDOW} questions (cached per store).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { hot, tags, pick } = await discovery(kv, Date.now());
 * ```
 */
export function discovery(
  kv: Deno.Kv,
  now: number,
  ttlMs = DISCOVERY_CACHE_MS,
): Promise<Discovery> {
  return cachedRead(kv, "discovery", ttlMs, async () => {
    const { questions } = await listQuestionsPage(kv, { page: 1, limit: HOT_WINDOW });
    const link = (q: { id: string; title: string }) => ({ id: q.id, title: q.title });
    const hot = questions
      .map((s) => ({ s, score: hotScore(s, now) }))
      .sort((a, b) => b.score - a.score || b.s.createdAt - a.s.createdAt)
      .slice(0, DISCOVERY_HOT)
      .map((r) => link(r.s));
    const counts = new Map<string, number>();
    for (const q of questions) {
      for (const t of new Set(q.tags.map(tagKey))) if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    const tags = [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, DISCOVERY_TAGS)
      .map(([tag, count]) => ({ tag, count }));
    const unanswered = questions.filter(isUnanswered).slice(0, DISCOVERY_UNANSWERED).map(link);
    const pick = unanswered.length
      ? unanswered[Math.floor(Math.random() * unanswered.length)]
      : null;
    return { hot, tags, unanswered, pick };
  });
}
