/**
 * Sitemap rolls: a dense, append-only numbering of the tags, the users and the debates,
 * so their sitemaps page like the questions' (lib/seo/sitemap.ts): page p of n is the key
 * range `((p−1)·n, p·n]` of `["sitemap_roll", kind, …]`, read in one list, however deep,
 * and a URL never moves to another page. None of the three has such a sequence of its own
 * (tags are keyed by name, users by a random id, debates by time with gaps), so a periodic
 * job keeps one beside each, without touching the writes that create them:
 *
 * - it walks the kind's source prefix in key order, a batch at a time, and numbers each
 *   name it has not numbered yet (no `["sitemap_roll_member", …]`), committing
 *   the rows, the head and where the walk stands in one op under its fence — a stopped run
 *   resumes after its last batch on any instance;
 * - debates are keyed `debate_<created ms>_…`, so new ones come after the walk's end: the
 *   walk keeps its place, stepped back {@link DEBATE_OVERLAP_MS} for debates committed
 *   late, and each run only reads what is new;
 * - tags and users arrive anywhere in key order, so those walks start over at most every
 *   {@link RESCAN_MS}; a new tag or profile is in its sitemap within that time.
 *
 * A numbered name stays numbered: whether it is shown (a tag with a live question, a
 * profile whose activity is public, a public debate) is decided when its page is read.
 *
 * @module
 */
import { commit, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobKind } from "../jobs/runner.ts";

/** The numbered kinds. */
export const ROLL_KINDS = ["tags", "profiles", "debates"] as const;

/** One numbered kind. */
export type RollKind = typeof ROLL_KINDS[number];

/** The job kind's name (periodic: one record, id "main"). */
export const SITEMAP_ROLL_JOB = "sitemap-rolls";
/** How often the job runs. */
export const ROLL_EVERY_MS = 10 * 60_000;
/** Least time between two full walks of tags and of users. */
export const RESCAN_MS = 6 * 60 * 60_000;
/** How far back a finished debate walk resumes, for debates committed after their id's time. */
export const DEBATE_OVERLAP_MS = 15 * 60_000;
/** Names read per batch (at most two rows each, one op per batch). */
const BATCH = 100;

/** Where a kind's walk stands. */
export interface RollWalk {
  /** The last name walked (null: the next walk starts at the beginning). */
  after: string | null;
  /** When a walk last reached the end (0: never). */
  walkedAt: number;
}

/** The source prefix each kind numbers the names of (its key's second part). */
function sourcePrefix(kind: RollKind): Deno.KvKey {
  return kind === "tags"
    ? keys.tagSeqHeadsPrefix()
    : kind === "profiles"
    ? keys.usersPrefix()
    : keys.debatesPrefix();
}

/** Where a finished walk of `kind` resumes: debates a little before the end, others over. */
function resumePoint(kind: RollKind, last: string | null): string | null {
  if (kind !== "debates" || last === null) return null;
  const ms = Number(/^debate_(\d+)_/.exec(last)?.[1]);
  // `debate_<ms>` sorts before every id created in that millisecond or later.
  return Number.isSafeInteger(ms) ? `debate_${Math.max(0, ms - DEBATE_OVERLAP_MS)}` : last;
}

/** Options of {@link advanceRoll} and {@link advanceRolls}. */
export interface RollOptions {
  now?: () => number;
  /** Adds the job's fence check to each op (none when called directly). */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
  signal?: AbortSignal;
  /** Names per batch (tests use small ones). */
  batch?: number;
}

/**
 * Walk `kind`'s source to its end (or until `signal` aborts), numbering every name not
 * numbered yet; nothing when a full walk of tags or users ran less than
 * {@link RESCAN_MS} ago. Returns how many names it numbered. Throws when a batch's commit
 * fails (the walk moved, or the job's lease was lost).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const added = await advanceRoll(kv, "profiles");
 * ```
 */
export async function advanceRoll(
  kv: Deno.Kv,
  kind: RollKind,
  { now = Date.now, fence = (op) => op, signal, batch = BATCH }: RollOptions = {},
): Promise<number> {
  const prefix = sourcePrefix(kind);
  let added = 0;
  let started = false;
  while (!signal?.aborted) {
    const [walkEntry, headEntry] = await kv.getMany<[RollWalk, number]>([
      keys.sitemapRollWalk(kind),
      keys.sitemapRollHead(kind),
    ]);
    const walk = walkEntry.value ?? { after: null, walkedAt: 0 };
    if (
      !started && kind !== "debates" && walk.after === null && walk.walkedAt > 0 &&
      now() - walk.walkedAt < RESCAN_MS
    ) return added;
    started = true;
    const names: string[] = [];
    const iter = kv.list(
      walk.after === null
        ? { prefix }
        // "\0" after the last name: the first key past it.
        : { prefix, start: [...prefix, `${walk.after}\0`] },
      { limit: batch },
    );
    for await (const e of iter) names.push(String(e.key[prefix.length]));
    const members = await getAll<number>(kv, names.map((n) => keys.sitemapRollMember(kind, n)));
    const fresh = names.filter((_, i) => members[i].versionstamp === null);
    const end = names.length < batch;
    const last = names.at(-1) ?? walk.after;
    const next: RollWalk = end
      ? { after: resumePoint(kind, last), walkedAt: now() }
      : { after: last, walkedAt: walk.walkedAt };
    let head = headEntry.value ?? 0;
    const res = await commit(kv, (op) => {
      // The head's check makes this the only numbering since the members were read (the
      // job is their one writer), so a name is never numbered twice.
      fence(op).check(walkEntry).check(headEntry);
      for (const [i, name] of fresh.entries()) {
        op.set(keys.sitemapRoll(kind, head + i + 1), name)
          .set(keys.sitemapRollMember(kind, name), head + i + 1);
      }
      op.set(keys.sitemapRollHead(kind), head + fresh.length).set(keys.sitemapRollWalk(kind), next);
    });
    if (!res.ok) throw new Error(`Sitemap roll of ${kind}: its walk moved or its lease was lost`);
    head += fresh.length;
    added += fresh.length;
    if (end) return added;
  }
  return added;
}

/**
 * Advance every kind's roll, one after the other. Returns the names numbered per kind.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const added = await advanceRolls(kv); // { tags: 3, profiles: 2, debates: 0 }
 * ```
 */
export async function advanceRolls(
  kv: Deno.Kv,
  opts: RollOptions = {},
): Promise<Record<RollKind, number>> {
  const added = { tags: 0, profiles: 0, debates: 0 };
  for (const kind of ROLL_KINDS) {
    if (opts.signal?.aborted) break;
    added[kind] = await advanceRoll(kv, kind, opts);
  }
  return added;
}

/**
 * How many names each kind has numbered (one `getMany`): its sitemap's page count over
 * the page size.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const { profiles } = await rollHeads(kv);
 * ```
 */
export async function rollHeads(kv: Deno.Kv): Promise<Record<RollKind, number>> {
  const got = await kv.getMany<number[]>(ROLL_KINDS.map((k) => keys.sitemapRollHead(k)));
  return { tags: got[0].value ?? 0, profiles: got[1].value ?? 0, debates: got[2].value ?? 0 };
}

/**
 * The names numbered `((page−1)·size, page·size]` of `kind`, in number order (one list).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const tags = await rollPage(kv, "tags", 1, 1000);
 * ```
 */
export async function rollPage(
  kv: Deno.Kv,
  kind: RollKind,
  page: number,
  size: number,
): Promise<string[]> {
  const names: string[] = [];
  const iter = kv.list<string>({
    start: keys.sitemapRoll(kind, (page - 1) * size + 1),
    end: keys.sitemapRoll(kind, page * size + 1),
  }, { limit: size });
  for await (const e of iter) names.push(e.value);
  return names;
}

/**
 * The rolls as a periodic job kind: every {@link ROLL_EVERY_MS}, on one instance at a time.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(sitemapRollJobKind());
 * ```
 */
export function sitemapRollJobKind(now: () => number = Date.now): JobKind {
  return {
    kind: SITEMAP_ROLL_JOB,
    every: ROLL_EVERY_MS,
    run: async (ctx) => {
      await advanceRolls(ctx.kv, { now, fence: ctx.fence, signal: ctx.signal });
    },
  };
}
