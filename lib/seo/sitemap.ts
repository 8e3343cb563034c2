/**
 * The sitemap (docs/interface.md#discoverable-pages): `/sitemap.xml` is a sitemap index
 * naming paged sitemaps, `/sitemaps/<kind>/<page>.xml`, each at most
 * {@link SITEMAP_PAGE_SIZE} URLs with a `lastmod`. Every kind pages by a dense sequence,
 * so page p is one key range however deep and a URL never moves to another page.
 *
 * - questions: page p is the key range of `questions_by_seq` positions
 *   `((p−1)·n, p·n]` (dense creation order, oldest first); deleted questions left that
 *   index, and every record is read and kept only when {@link isPublic} (hidden ones are
 *   dropped). `lastmod`: last edit or creation.
 * - tags, profiles, debates: page p is that range of the kind's roll (./sitemap_rolls.ts,
 *   numbered by a job, in the order the job first saw each); kept when still shown:
 *   - tags: `lastmod` the newest question of the tag still shown (a tag with none is left
 *     out);
 *   - profiles: users whose activity is public (privacy settings); `lastmod` the sign-up;
 *   - debates: debates whose owner's `debateArchive` is public (docs/interface.md#public-debates)
 *     and that moderators have not withdrawn; `lastmod` the debate's last update.
 *
 * Every read is one bounded list plus batched `getMany`s of at most n keys each (and, for
 * a tag whose newest question was deleted or hidden, one list of one row for its newest
 * left).
 *
 * @module
 */
import { EVENTUAL } from "../kv/consistency.ts";
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { getQuestions } from "../community/questions/read.ts";
import { isPublic } from "../community/visibility.ts";
import { type QuestionRecord, seqRowId } from "../community/questions/model.ts";
import type { User } from "../auth/users.ts";
import { DEFAULT_SETTINGS, type Settings } from "../profile/settings.ts";
import { activityVisibleToOthers } from "../profile/activity.ts";
import type { DebateRecord } from "../debates/store.ts";
import { withdrawnAmong } from "../moderation/withdrawn.ts";
import { rollHeads, rollPage } from "./sitemap_rolls.ts";
import { xmlText } from "../text/xml.ts";

/** URLs per sitemap page (the protocol allows 50,000; smaller pages read less KV). */
export const SITEMAP_PAGE_SIZE = 1000;

/** The kinds of paged sitemap. */
export const SITEMAP_KINDS = ["questions", "tags", "profiles", "debates"] as const;

/** One kind of paged sitemap. */
export type SitemapKind = typeof SITEMAP_KINDS[number];

/** One `<url>` of a sitemap: an absolute location and when it last changed (ms). */
export interface SitemapUrl {
  loc: string;
  lastmod: number;
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
 * Locations of every paged sitemap, for the index: the pages of each kind, from its
 * sequence head (one read for questions, one `getMany` for the rolls); at least page 1
 * of each kind, so the index names every kind from the start.
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
  const [questions, rolled] = await Promise.all([questionPageCount(kv, size), rollHeads(kv)]);
  const pages: Record<SitemapKind, number> = {
    questions,
    tags: Math.ceil(rolled.tags / size),
    profiles: Math.ceil(rolled.profiles / size),
    debates: Math.ceil(rolled.debates / size),
  };
  const out: string[] = [];
  for (const kind of SITEMAP_KINDS) {
    for (let p = 1; p <= Math.max(1, pages[kind]); p++) {
      out.push(`${origin}/sitemaps/${kind}/${p}.xml`);
    }
  }
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
  const names = await rollPage(kv, kind, page, size);
  if (kind === "tags") return await tagUrls(kv, origin, names);
  if (kind === "profiles") return await profileUrls(kv, origin, names);
  return await debateUrls(kv, origin, names);
}

async function questionUrls(
  kv: Deno.Kv,
  origin: string,
  page: number,
  size: number,
): Promise<SitemapUrl[]> {
  const ids: string[] = [];
  const iter = kv.list({
    start: keys.questionBySeq((page - 1) * size + 1),
    end: keys.questionBySeq(page * size + 1),
  }, { limit: size, ...EVENTUAL });
  for await (const e of iter) {
    const id = seqRowId(e.value);
    if (id) ids.push(id);
  }
  const records = await getQuestions(kv, ids);
  return records.map((q) => ({
    loc: `${origin}/questions/${encodeURIComponent(q.id)}`,
    lastmod: q.editedAt ?? q.createdAt,
  }));
}

async function tagUrls(kv: Deno.Kv, origin: string, tags: string[]): Promise<SitemapUrl[]> {
  const heads = await getAll<number>(kv, tags.map((t) => keys.tagSeqHead(t)));
  const atHead = await getAll<string>(
    kv,
    tags.map((t, i) => keys.questionByTag(t, heads[i].value ?? 0)),
  );
  // The head's question deleted or hidden (its row is a hole): the newest row left.
  const newestIds = await Promise.all(
    atHead.map((e, i) => e.value ?? newestRowOf(kv, tags[i])),
  );
  const newest = await getAll<QuestionRecord>(
    kv,
    newestIds.map((id) => keys.question(id ?? "")),
  );
  return tags.map((tag, i) => {
    const q = newest[i]?.value;
    return { loc: `${origin}/?tag=${encodeURIComponent(tag)}`, q };
  }).flatMap(({ loc, q }) => q && isPublic(q) ? [{ loc, lastmod: q.createdAt }] : []);
}

/** The question id of the newest row of `tag`'s feed, or null. */
async function newestRowOf(kv: Deno.Kv, tag: string): Promise<string | null> {
  const rows = kv.list<string>({ prefix: keys.questionsByTagPrefix(tag) }, {
    reverse: true,
    limit: 1,
    ...EVENTUAL,
  });
  for await (const e of rows) return e.value;
  return null;
}

async function profileUrls(kv: Deno.Kv, origin: string, ids: string[]): Promise<SitemapUrl[]> {
  const users = await getAll<User>(kv, ids.map((id) => keys.user(id)));
  const settings = await getAll<Partial<Settings>>(kv, ids.map((id) => keys.settings(id)));
  return users.flatMap((u, i) => {
    // Profiles whose activity others may see (the one rule, lib/profile/activity.ts).
    const visible = activityVisibleToOthers("questions", {
      ...DEFAULT_SETTINGS,
      ...settings[i].value,
    });
    return u.value && visible
      ? [{ loc: `${origin}/u/${encodeURIComponent(u.value.id)}`, lastmod: u.value.createdAt }]
      : [];
  });
}

async function debateUrls(kv: Deno.Kv, origin: string, ids: string[]): Promise<SitemapUrl[]> {
  const [records, withdrawn] = await Promise.all([
    getAll<DebateRecord>(kv, ids.map((id) => keys.debate(id))),
    withdrawnAmong(kv, "debate", ids),
  ]);
  const debates = records.flatMap((e) => e.value && !withdrawn.has(e.value.id) ? [e.value] : []);
  const owners = [...new Set(debates.map((d) => d.userId))];
  const settings = await getAll<Partial<Settings>>(kv, owners.map((id) => keys.settings(id)));
  const open = new Set(
    owners.filter((_, i) =>
      (settings[i].value?.debateArchive ?? DEFAULT_SETTINGS.debateArchive) === "public"
    ),
  );
  return debates.filter((d) => open.has(d.userId)).map((d) => ({
    loc: `${origin}/debates/${encodeURIComponent(d.id)}`,
    lastmod: d.updatedAt,
  }));
}
