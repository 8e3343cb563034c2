/**
 * The compaction migration: rewrites the records of stores written before compact storage
 * into the current shapes ({@link SHAPE_VERSION}), so they take the bytes new writes take.
 * The steps: notifications become references (lib/notifications/stored.ts) that expire,
 * and each person keeps the newest {@link NOTIFICATIONS_KEPT}; voters' activity rows keep
 * only the vote's direction (lib/community/user_vote_rows.ts) — both shape 2; newest-feed
 * rows (`["questions_by_seq", seq]`) hold the question's id instead of a copy of the
 * question (shape 3; lib/community/questions/model.ts `seqRowId`); authors' activity rows
 * (`["messages_by_author", …]`) hold the message's question id instead of an object that
 * also copied the message id of their key (shape 4; lib/community/messages/model.ts
 * `authorRowQuestionId`); vote rows (`["votes", …]`) hold one signed time instead of
 * `{voteType, createdAt}` (shape 5; lib/community/vote_rows.ts); each person's unread counter
 * is recounted from their notifications together with its expiry ledger, which stores
 * before shape 6 lack (lib/notifications/unread.ts `recountUnread`).
 *
 * Each step names the shape version that introduced it. A store at an older version
 * (`["meta", "shape"]`) walks only the steps after it: raising {@link SHAPE_VERSION} with a
 * new step makes the finished job walk again, from that step.
 *
 * It runs as a periodic job of the runner (lib/jobs/runner.ts) whose revision is
 * {@link SHAPE_VERSION}, so it starts at the first resume pass after an upgrade — a store
 * whose job finished under an older shape has it due at once — with no scan at start: a finished store says so in one key,
 * `["meta", "shape"]`, which the job reads first (one read a day once done). Each batch
 * rewrites up to {@link COMPACT_BATCH} entries, each under a check of the version it read
 * (a person marking one read meanwhile wins, and the batch is read again), and commits
 * the walk's cursor in the same op under the job's fence and a check on the progress, so a
 * stop anywhere resumes after the last committed batch on any instance. `deno task fsck
 * --repair` rewrites the same records (lib/ops/fsck/notifications.ts) and sets the shape
 * key when none is left. Readers accept both shapes meanwhile.
 *
 * @module
 */
import { commit, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobKind } from "../jobs/runner.ts";
import {
  expireInOf,
  isNotificationRef,
  notificationOf,
  NOTIFICATIONS_KEPT,
  refOf,
} from "../notifications/stored.ts";
import { trimNotifications } from "../notifications/notifications.ts";
import {
  isUnread,
  recountUnread,
  type UnreadMark,
  unreadMarkKey,
  unreadMarkOf,
} from "../notifications/unread.ts";
import { isCompactUserVote, voteTypeOfRow } from "../community/user_vote_rows.ts";
import { seqRowId } from "../community/questions/model.ts";
import { authorRowQuestionId } from "../community/messages/model.ts";
import { isCompactVote, storedVote, voteOf } from "../community/vote_rows.ts";

/** The record shapes this code writes; `["meta", "shape"]` holds the store's. */
export const SHAPE_VERSION = 6;
/** The job kind's name (a periodic job: one record, id "main"). */
export const COMPACT_JOB = "compact";
/** Its progress record's name (`["backfills", name]`). */
export const COMPACT_PROGRESS = "compact";
/** How often the finished job looks again (one read). */
export const COMPACT_RECHECK_MS = 24 * 60 * 60_000;
/** Entries rewritten per op (each with its check). */
export const COMPACT_BATCH = 50;
/** Checks KV allows in one op. */
const MAX_CHECKS = 100;

/** Where the migration stands. */
export interface CompactProgress {
  /** The index of the step being walked ({@link STEPS}). */
  step: number;
  /** The last key the step walked (null: none yet). */
  after: Deno.KvKey | null;
  /** Entries rewritten so far, all steps. */
  rewritten: number;
  /** When the last step reached its end (absent while it runs). */
  doneAt?: number;
  /** The shape version the walk brings the store to (absent: 2, the first migration's). */
  target?: number;
}

/** A stored value in an older shape, and what to write instead. */
interface Rewrite {
  value: unknown;
  expireIn?: number;
}

/** One prefix the migration walks and how an entry there is rewritten. */
interface Step {
  name: string;
  /** The shape version whose records this step writes (a store at it or later skips it). */
  since: number;
  prefix: Deno.KvKey;
  /**
   * The entry's rewrite, or null when it already has the current shape (or no known one).
   * `dependency` is the entry at {@link Step.dependsOn}'s key, when the step has one.
   */
  rewrite(
    entry: Deno.KvEntry<unknown>,
    now: number,
    dependency?: Deno.KvEntryMaybe<unknown>,
  ): Rewrite | null;
  /**
   * A key besides the entry that its rewrite is judged by (its owner's watermark): read
   * with the batch and checked in its op, so a change to it meanwhile retries the batch.
   */
  dependsOn?(key: Deno.KvKey): Deno.KvKey;
  /** After a batch: the owners whose entries the walk has left behind (e.g. to trim). */
  leftBehind?(kv: Deno.Kv, owners: string[], now: number): Promise<void>;
  /** The owner of an entry (the key part `leftBehind` groups by). */
  ownerOf?(key: Deno.KvKey): string;
  /**
   * `leftBehind` may see an owner twice (it is idempotent): it gets the last owner of a full
   * page too, who may have no entries on the next one.
   */
  ownerTwice?: true;
}

/**
 * A notification's current shape when the entry holds an older one, else null. One that
 * its owner's watermark `mark` reads now gets its own read flag: the rewrite commits after
 * the watermark, and commit order is what the watermark goes by (lib/notifications/unread.ts
 * `isUnread`), so without the flag a notification stamped in the minute before "mark all
 * read" would come back unread.
 *
 * @example
 * ```ts
 * declare const entry: Deno.KvEntry<unknown>;
 * const r = notificationRewrite(entry, Date.now(), null);
 * ```
 */
export function notificationRewrite(
  entry: Deno.KvEntry<unknown>,
  now: number,
  mark: UnreadMark | null,
): Rewrite | null {
  const { key, value } = entry;
  if (isNotificationRef(value) || typeof key[2] !== "string") return null;
  const n = notificationOf(key[2], value);
  if (!n) return null;
  const read = n.read || !isUnread(n, entry.versionstamp, mark);
  return { value: refOf({ ...n, read }), expireIn: expireInOf(n, now) };
}

/**
 * A newest-feed row's current shape (the question's id) when `value` is the copy of the
 * question older stores kept there, else null.
 *
 * @example
 * ```ts
 * seqRowRewrite({ id: "q-1", title: "…" }); // { value: "q-1" }
 * seqRowRewrite("q-1"); // null: already the id
 * ```
 */
export function seqRowRewrite(value: unknown): Rewrite | null {
  if (typeof value === "string") return null;
  const id = seqRowId(value);
  return id ? { value: id } : null;
}

const STEPS: readonly Step[] = [{
  name: "notifications",
  since: 2,
  prefix: ["notifications"],
  rewrite: (e, now, mark) => notificationRewrite(e, now, mark ? unreadMarkOf(mark) : null),
  dependsOn: (key) => unreadMarkKey(String(key[1])),
  ownerOf: (key) => String(key[1]),
  leftBehind: async (kv, owners) => {
    for (const userId of owners) await trimNotifications(kv, userId, NOTIFICATIONS_KEPT);
  },
}, {
  name: "user_votes",
  since: 2,
  prefix: ["user_votes"],
  rewrite: (e) => {
    if (isCompactUserVote(e.value)) return null;
    const voteType = voteTypeOfRow(e.value);
    return voteType ? { value: voteType } : null;
  },
}, {
  name: "questions_by_seq",
  since: 3,
  prefix: ["questions_by_seq"],
  rewrite: (e) => seqRowRewrite(e.value),
}, {
  name: "messages_by_author",
  since: 4,
  prefix: ["messages_by_author"],
  rewrite: (e) => {
    if (typeof e.value === "string") return null;
    const questionId = authorRowQuestionId(e.value);
    return questionId ? { value: questionId } : null;
  },
}, {
  name: "votes",
  since: 5,
  prefix: ["votes"],
  rewrite: (e) => {
    if (isCompactVote(e.value)) return null;
    const vote = voteOf(e.value);
    return vote ? { value: storedVote(vote.voteType, vote.createdAt) } : null;
  },
}, {
  name: "notification_unread",
  since: 6,
  // Each person with a counter (or a watermark): nothing rewritten, the count recounted.
  prefix: ["notification_unread"],
  rewrite: () => null,
  ownerOf: (key) => String(key[1]),
  ownerTwice: true,
  leftBehind: async (kv, owners, now) => {
    for (const userId of owners) await recountUnread(kv, userId, now);
  },
}];

/**
 * Where a walk to {@link SHAPE_VERSION} starts on a store at shape `shape` (0: none
 * recorded): the first step a store at that shape has not had.
 */
function freshWalk(shape: number): CompactProgress {
  const step = STEPS.findIndex((s) => s.since > shape);
  return {
    step: step < 0 ? STEPS.length - 1 : step,
    after: null,
    rewritten: 0,
    target: SHAPE_VERSION,
  };
}

/** Options of {@link compactStore}. */
export interface CompactOptions {
  /** Adds the job's fence check to each op (none when called directly). */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
  /** Stop after the batch in hand when this aborts. */
  signal?: AbortSignal;
  now?: () => number;
  /** Entries per batch (tests use small ones). */
  batch?: number;
  /** Stop after this many batches (tests: an interrupted run). */
  maxBatches?: number;
}

/**
 * True when the store's records all have the current shapes (`["meta", "shape"]`).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * if (!(await isCompacted(kv))) console.log("the compaction migration has work to do");
 * ```
 */
export async function isCompacted(kv: Deno.Kv): Promise<boolean> {
  const v = (await kv.get<number>(keys.storeShape())).value;
  return typeof v === "number" && v >= SHAPE_VERSION;
}

/** Consecutive failed commits of one batch before the run gives up (the runner retries). */
const MAX_TRIES = 5;

/**
 * Rewrite what the walk has not reached yet, batch by batch, until the end (then the
 * shape key is set) or `signal` aborts or `maxBatches` ran. Returns the progress after the
 * last committed batch. Throws when a batch keeps failing (the lease was lost, or the
 * progress moved: whoever holds the job goes on).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const progress = await compactStore(kv);
 * progress.doneAt !== undefined; // true: every record has the current shape
 * ```
 */
export async function compactStore(
  kv: Deno.Kv,
  { fence = (op) => op, signal, now = Date.now, batch = COMPACT_BATCH, maxBatches = Infinity }:
    CompactOptions = {},
): Promise<CompactProgress> {
  const key = keys.backfill(COMPACT_PROGRESS);
  let batches = 0;
  let tries = 0;
  for (;;) {
    const [entry, shape] = await kv.getMany<[CompactProgress, number]>([key, keys.storeShape()]);
    const at = typeof shape.value === "number" ? shape.value : 0;
    if (at >= SHAPE_VERSION) {
      const progress = entry.value ?? freshWalk(at);
      return { ...progress, doneAt: progress.doneAt ?? now() };
    }
    // No walk yet, or the finished walk of an older version: walk the steps after the
    // store's shape. An unfinished walk goes on where it stopped (steps are only appended).
    const progress = !entry.value || entry.value.doneAt !== undefined
      ? freshWalk(at)
      : { ...entry.value, target: SHAPE_VERSION };
    if (signal?.aborted || batches >= maxBatches) return progress;
    const step = STEPS[progress.step];
    const page: Deno.KvEntry<unknown>[] = [];
    const selector: Deno.KvListSelector = progress.after === null
      ? { prefix: step.prefix }
      // "" after the last key: the first key past it.
      : { prefix: step.prefix, start: [...progress.after, ""] };
    // Besides the fence and the progress, each rewritten entry may bring two checks.
    const limit = step.dependsOn ? Math.min(batch, (MAX_CHECKS - 2) >> 1) : batch;
    for await (const e of kv.list(selector, { limit })) page.push(e);
    const dependencies = step.dependsOn
      ? await readEach(kv, page.map((e) => step.dependsOn!(e.key)))
      : [];
    const time = now();
    const rewrites = page.map((e, i) => step.rewrite(e, time, dependencies[i]));
    const stepDone = page.length < limit;
    const lastStep = progress.step === STEPS.length - 1;
    const next: CompactProgress = stepDone
      ? {
        step: lastStep ? progress.step : progress.step + 1,
        after: null,
        rewritten: progress.rewritten + rewrites.filter(Boolean).length,
        target: SHAPE_VERSION,
        ...(lastStep ? { doneAt: time } : {}),
      }
      : {
        step: progress.step,
        after: page.at(-1)!.key,
        rewritten: progress.rewritten + rewrites.filter(Boolean).length,
        target: SHAPE_VERSION,
      };
    const res = await commit(kv, (op) => {
      fence(op).check(entry).set(key, next);
      const checked = new Set<Deno.KvEntryMaybe<unknown>>();
      page.forEach((e, i) => {
        const r = rewrites[i];
        if (!r) return;
        op.check(e).set(e.key, r.value, r.expireIn ? { expireIn: r.expireIn } : undefined);
        const d = dependencies[i];
        if (d && !checked.has(d)) {
          op.check(d);
          checked.add(d);
        }
      });
      if (next.doneAt !== undefined) op.set(keys.storeShape(), SHAPE_VERSION);
    });
    if (!res.ok) {
      // A person changed an entry of the batch (read it again), or the job moved on.
      if (++tries >= MAX_TRIES) {
        throw new Error("Compaction: its batch kept failing (progress moved or lease lost)");
      }
      continue;
    }
    tries = 0;
    batches++;
    if (step.leftBehind && step.ownerOf && page.length) {
      const owners = [...new Set(page.map((e) => step.ownerOf!(e.key)))];
      // The last owner of a full page may have more entries on the next one.
      await step.leftBehind(
        kv,
        stepDone || step.ownerTwice ? owners : owners.slice(0, -1),
        time,
      );
    }
    if (next.doneAt !== undefined) return next;
  }
}

/** The entries at `list`, in its order: each distinct key read once (one entry object). */
async function readEach(kv: Deno.Kv, list: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<unknown>[]> {
  const ids = list.map((k) => JSON.stringify(k));
  const distinct = [...new Map(list.map((k, i) => [ids[i], k])).values()];
  const got = new Map((await getAll(kv, distinct)).map((e) => [JSON.stringify(e.key), e]));
  return ids.map((id) => got.get(id)!);
}

/**
 * The migration as a periodic job kind: it runs at once on a store that never had it (the
 * first resume pass after start), and resumes on any instance after a stop.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * jobRunner(kv).register(compactJobKind());
 * ```
 */
export function compactJobKind(now: () => number = Date.now): JobKind {
  return {
    kind: COMPACT_JOB,
    every: COMPACT_RECHECK_MS,
    // A new step (a raised SHAPE_VERSION) starts at the first pass after the upgrade.
    revision: SHAPE_VERSION,
    run: async (ctx) => {
      await compactStore(ctx.kv, { fence: ctx.fence, signal: ctx.signal, now });
    },
  };
}
