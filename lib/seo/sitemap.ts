/**
 * The sitemap (docs/interface.md#discoverable-pages): `/sitemap.xml` is a sitemap index
 * naming paged sitemaps, `/sitemaps/<kind>/<page>.xml`, each at most
 * {@link SITEMAP_PAGE_SIZE} URLs with a `lastmod`.
 *
 * - questions: page p is the key range of `questions_by_seq` positions
 *   `((p−1)·n, p·n]` (dense creation order, oldest first, so a page's URLs never move to
 *   another page); deleted questions left that index, and every record is read and kept
 *   only when {@link isPublic} (hidden ones are dropped). `lastmod`: last edit or creation.
 * - tags: the first n tags of `tag_seq_head` (one page for now); `lastmod`: the newest
 *   question of the tag (a tag whose newest question is gone is left out).
 * - profiles: of the first n users (one page for now), those whose activity is public
 *   (privacy settings); `lastmod`: the user's creation.
 *
 * Every read is one bounded list plus batched `getMany`s of at most n keys.
 *
 * @module
 */
import { EVENTUAL } from "../kv/consistency.ts";
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { getQuestions } from "../community/questions/read.ts";
import type { QuestionRecord, QuestionSnapshot } from "../community/questions/model.ts";
import type { User } from "../auth/users.ts";
import type { Settings } from "../profile/settings.ts";

/** URLs per sitemap page (the protocol allows 50,000; smaller pages read less KV). */
export const SITEMAP_PAGE_SIZE = 1000;

/** The kinds of paged sitemap. */
export const SITEMAP_KINDS = ["questions", "tags", "profiles"] as const;

/** One kind of paged sitemap. */
export type SitemapKind = typeof SITEMAP_KINDS[number];

/** One `<url>` of a sitemap: an absolute location and when it last changed (ms). */
export interface SitemapUrl {
  loc: string;
  lastmod: number;
}

/** Escape text for an XML element. */
function xmlText(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&apos;");
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The XML of one sitemap page.
 *
 * @example
 * ```ts
 * sitemapXml([{ loc: "https://p.example/questions/q1", lastmod: 0 }]).includes("<loc>"); // true
 * ```
 */
export function sitemapXml(urls: SitemapUrl[]): string {
  const body = urls.map((u) =>
    `<url><loc>${xmlText(u.loc)}</loc><lastmod>${isoDate(u.lastmod)}</lastmod></url>`
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

/**
 * The XML of the sitemap index naming `locations` (absolute).
 *
 * @example
 * ```ts
 * sitemapIndexXml(["https://p.example/sitemaps/questions/1.xml"]).includes("<sitemapindex"); // true
 * ```
 */
export function sitemapIndexXml(locations: string[]): string {
  const body = locations.map((l) => `<sitemap><loc>${xmlText(l)}</loc></sitemap>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
}

/** Number of question sitemap pages: the sequence head over the page size. */
async function questionPageCount(kv: Deno.Kv, size: number): Promise<number> {
  const head = (await kv.get<number>(keys.questionSeqHead(), EVENTUAL)).value ?? 0;
  return Math.ceil(head / size);
}

/**
 * Locations of every paged sitemap, for the index: one per question page (from the
 * sequence head, one read), the tags page and the profiles page.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const locations = await sitemapLocations(kv, "https://p.example");
 * ```
 */
export async function sitemapLocations(
  kv: Deno.Kv,
  origin: string,
  size = SITEMAP_PAGE_SIZE,
): Promise<string[]> {
  const pages = await questionPageCount(kv, size);
  const out: string[] = [];
  for (let p = 1; p <= pages; p++) out.push(`${origin}/sitemaps/questions/${p}.xml`);
  out.push(`${origin}/sitemaps/tags/1.xml`);
  out.push(`${origin}/sitemaps/profiles/1.xml`);
  return out;
}

/**
 * The URLs of page `page` (1-based) of the `kind` sitemap; an empty list past the end.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const urls = await sitemapPage(kv, "https://p.example", "questions", 1);
 * ```
 */
export async function sitemapPage(
  kv: Deno.Kv,
  origin: string,
  kind: SitemapKind,
  page: number,
  size = SITEMAP_PAGE_SIZE,
): Promise<SitemapUrl[]> {
  if (!Number.isSafeInteger(page) || page < 1) return [];
  if (kind === "questions") return await questionUrls(kv, origin, page, size);
  if (page !== 1) return [];
  if (kind === "tags") return await tagUrls(kv, origin, size);
  return await profileUrls(kv, origin, size);
}

async function questionUrls(
  kv: Deno.Kv,
  origin: string,
  page: number,
  size: number,
): Promise<SitemapUrl[]> {
  const ids: string[] = [];
  const iter = kv.list<QuestionSnapshot>({
    start: keys.questionBySeq((page - 1) * size + 1),
    end: keys.questionBySeq(page * size + 1),
  }, { limit: size, ...EVENTUAL });
  for await (const e of iter) ids.push(e.value.id);
  const records = await getQuestions(kv, ids);
  return records.map((q) => ({
    loc: `${origin}/questions/${encodeURIComponent(q.id)}`,
    lastmod: q.editedAt ?? q.createdAt,
  }));
}

async function tagUrls(kv: Deno.Kv, origin: string, size: number): Promise<SitemapUrl[]> {
  const heads: { tag: string; head: number }[] = [];
  const iter = kv.list<number>({ prefix: keys.tagSeqHeadsPrefix() }, { limit: size, ...EVENTUAL });
  for await (const e of iter) heads.push({ tag: String(e.key[1]), head: e.value });
  const newestIds = await getAll<string>(kv, heads.map((h) => keys.questionByTag(h.tag, h.head)));
  const newest = await getAll<QuestionRecord>(
    kv,
    newestIds.map((e) => keys.question(e.value ?? "")),
  );
  return heads.map((h, i) => ({
    loc: `${origin}/?tag=${encodeURIComponent(h.tag)}`,
    lastmod: newest[i]?.value?.createdAt ?? 0,
  })).filter((u) => u.lastmod > 0);
}

async function profileUrls(kv: Deno.Kv, origin: string, size: number): Promise<SitemapUrl[]> {
  const users: User[] = [];
  const iter = kv.list<User>({ prefix: keys.usersPrefix() }, { limit: size, ...EVENTUAL });
  for await (const e of iter) users.push(e.value);
  const settings = await getAll<Partial<Settings>>(kv, users.map((u) => keys.settings(u.id)));
  return users.filter((_, i) => (settings[i]?.value?.activityVisibility ?? "public") === "public")
    .map((u) => ({ loc: `${origin}/u/${encodeURIComponent(u.id)}`, lastmod: u.createdAt }));
}
